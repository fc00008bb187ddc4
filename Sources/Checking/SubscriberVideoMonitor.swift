import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// RND-4 + SUB-5 across both vocabularies: an OpenTok-style subscriber whose stage
/// subscription is audioOnly reports no video layer and no quality-fallback event, since it
/// receives no video. Stateless: it reads the observer's view of the publisher at the event.
public struct SubscriberVideoMonitor: InvariantMonitor {
    public var name: String { "no-video-reports-under-audio-only" }
    public var summary: String { "an OpenTok subscriber under an audioOnly subscription reports no video layer or quality event" }
    public var rules: [String] { ["RND-4", "SUB-5"] }

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard case .subscriber(let subscriber) = event.kind, SubscriberEventOrderCheck.isVideoReport(subscriber.event),
              let observer = world.clientIndex(named: event.observer),
              world.clients[observer].view[subscriber.publisherId]?.requested == .audioOnly
        else { return [] }
        return [violation(event, index: index, "\(subscriber.event) about \(subscriber.streamId) under an audioOnly subscription")]
    }

    public static var keyReads: WorldReads { [] }

    /// Stateless: it reads the observer's view at each event.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
