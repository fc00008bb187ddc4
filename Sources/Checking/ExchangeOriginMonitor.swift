import Simulation
import StageCore
import StageWorld

/// TOK-3: token exchange works only with key-pair tokens. Whenever the stage service accepts
/// an exchange, the new token (the one the step delivered to it) is signed by an app's key
/// pair, and so is the token the participant was admitted with. The new token's origin is
/// read here from its key id and the service's key ring, not through the service's own
/// refusal rule (`StageServer.exchangeRefusal`), so an origin check the model gets wrong (one
/// origin checked instead of both, one direction forgotten) is a disagreement it sees. The
/// admitted token's origin is the one the service recorded at the admission: an exchange the
/// monitor lets pass never changes it.
public struct ExchangeOriginMonitor: InvariantMonitor {
    public var name: String { "exchange-only-with-key-pair-tokens" }
    public var summary: String { "the stage service accepts an exchange only from a key-pair token to a key-pair token" }
    public var rules: [String] { ["TOK-3"] }
    /// The token of the exchange the current action delivered to the service: set by that
    /// delivery, cleared by the next action's opening event at the service (every service event
    /// follows the delivery or timer that caused it).
    private var token: String?

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard event.observer == "server" else { return [] }
        switch event.kind {
        case .delivered(.exchangeToken(let token), _):
            self.token = token
        case .service(.metadataUpdated(let info)):
            // A rejoin's new token updates the service's record too (`rejoin`); it is no exchange.
            guard let token, let held = world.server.participant(info.participantId) else { return [] }
            let new = TokenCodec.keyIdUnverified(token).flatMap { world.config.keyRing.key(withId: $0) }?.origin
            if new != .keyPair {
                return [violation(event, index: index, "the service accepted an exchange for \(info.participantId) to a token that is not a key-pair token (\(new?.rawValue ?? "unknown key"))")]
            }
            if held.origin != .keyPair {
                return [violation(event, index: index, "the service accepted an exchange for \(info.participantId), admitted with a \(held.origin.rawValue) token")]
            }
        case .service:
            break
        default:
            token = nil
        }
        return []
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: a token left from an earlier action is cleared by the opening event of
    /// any later action at the service before a verdict could read it.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
