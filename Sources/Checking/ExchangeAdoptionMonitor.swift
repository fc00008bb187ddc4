import Simulation
import StageCore
import StageWorld

/// TOK-5: an accepted exchange makes the new token the participant's token. The service's
/// `exchangeAccepted` answer names the participant as the token it accepted says (user id,
/// attributes, capabilities); the client that handles that answer while connected must hold,
/// after the step, a token whose claims say the same. An SDK that pairs the answer with
/// another token it asked about (one the service refused, say) holds the wrong token from then
/// on, and presents it when it joins again. Stateless: read from the answer and the client's
/// token after the step.
public struct ExchangeAdoptionMonitor: InvariantMonitor {
    public var name: String { "exchange-adopts-the-accepted-token" }
    public var summary: String { "after an accepted exchange the client holds a token that says what the service accepted" }
    public var rules: [String] { ["TOK-5"] }

    public init() {}

    public func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard case .delivered(.exchangeAccepted(let accepted), _) = event.kind,
              let client = world.clientIndex(named: event.observer),
              world.clients[client].view.local.connectionState == .connected else { return [] }
        guard let held = world.clients[client].claims?.participantInfo(isLocal: false) else {
            return [violation(event, index: index, "the service accepted an exchange, but the client holds a token it cannot read")]
        }
        guard Self.sameIdentity(held, accepted) else {
            return [violation(event, index: index, "the service accepted \(Self.describe(accepted)), but the client holds a token for \(Self.describe(held))")]
        }
        return []
    }

    /// Whether two descriptions of a participant agree on what a token says.
    static func sameIdentity(_ held: ParticipantInfo, _ accepted: ParticipantInfo) -> Bool {
        held.participantId == accepted.participantId && held.userId == accepted.userId
            && held.attributes == accepted.attributes && held.capabilities == accepted.capabilities
    }

    static func describe(_ info: ParticipantInfo) -> String {
        "user=\(info.userId) \(info.attributes) publish=\(info.capabilities.canPublish) subscribe=\(info.capabilities.canSubscribe)"
    }

    /// Stateless: each verdict reads only the event and the client after the step.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}

    public static var keyReads: WorldReads { [] }
}
