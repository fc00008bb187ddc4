import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// SUB-5, SUB-6: `subscriberVideoDisabled(qualityChanged)` "is only used in sessions that have
/// the media mode set to routed", and a publisher that set `audioFallbackEnabled` to NO before
/// publishing never has its video disabled for quality. Both are read from what was declared:
/// the subscribing client's media mode and the publishing client's own setting (its
/// `ClientConfig`), not from the stream the subscriber's SDK built, so an SDK that loses the
/// publisher's setting on the way is caught.
public struct QualityFallbackMonitor: InvariantMonitor {
    public var name: String { "quality-fallback-only-where-allowed" }
    public var summary: String { "video is disabled for quality only in routed mode and only for a publisher with audioFallbackEnabled" }
    public var rules: [String] { ["SUB-5", "SUB-6"] }

    public init() {}

    public func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard case .subscriber(let told) = event.kind, told.event == .subscriberVideoDisabled(reason: .qualityChanged),
              let subscriber = world.clientIndex(named: event.observer) else { return [] }
        var found: [Violation] = []
        if world.clients[subscriber].config.mediaMode != .routed {
            found.append(violation(event, index: index, "\(told.streamId) was disabled for quality in a \(world.clients[subscriber].config.mediaMode) session"))
        }
        if Self.noPublisherAllowsFallback(told.publisherId, in: world) {
            found.append(violation(event, index: index, "\(told.streamId) was disabled for quality, yet \(told.publisherId) publishes with audioFallbackEnabled = false"))
        }
        return found
    }

    /// Whether every client whose token names `participantId` publishes with
    /// `audioFallbackEnabled` off. Two clients may share a token's participant id (TOK-10),
    /// and a subscriber's stream may come from either's publish, so only a stream none of them
    /// could have published with fallback is judged.
    static func noPublisherAllowsFallback(_ participantId: String, in world: World) -> Bool {
        let holders = world.clients.indices.filter { world.clients[$0].claims?.participantId == participantId }
        return !holders.isEmpty && holders.allSatisfy { !world.clients[$0].config.audioFallbackEnabled }
    }

    /// Stateless: it writes nothing.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
