import Simulation
import StageCore
import StageWorld

/// STG-4: at most `publisherCapacity` participants (12, `WorldConfig`) publish on a stage at
/// once, and the service refuses a new publisher (STAGE_AT_CAPACITY) exactly when that many
/// already publish. Judged at each publish the service handles, from the step's world: the
/// monitor counts the participants the service holds streams for itself (a publisher kept
/// for the reconnect grace keeps its place), not through the model's `publisherCount`. A
/// publish that left its sender publishing was admitted, so the count may not exceed the
/// capacity; one that left it not publishing (from a sender whose token allows publishing)
/// was refused for capacity, and since a refusal changes nothing, the count it was refused at
/// is the count after the step, which must be the capacity or more.
public struct PublisherCapacityMonitor: InvariantMonitor {
    public var name: String { "publish-refused-only-at-capacity" }
    public var summary: String { "the service admits a new publisher while fewer than the stage's capacity publish, and refuses it once that many do" }
    public var rules: [String] { ["STG-4"] }

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard event.observer == "server", case .delivered(.publish(let streams, _), _) = event.kind, !streams.isEmpty,
              let sender = event.peer.flatMap(world.clientIndex(named:)),
              let publisher = world.server.participants.first(where: { $0.clientIndex == sender }),
              publisher.info.capabilities.canPublish else { return [] }
        var publishing = 0
        for participant in world.server.participants where !participant.publishedStreams.isEmpty { publishing += 1 }
        let capacity = world.config.publisherCapacity
        let id = publisher.info.participantId
        if !publisher.publishedStreams.isEmpty && publishing > capacity {
            return [violation(event, index: index, "the service admitted \(id)'s publish, making \(publishing) publishers on a stage of capacity \(capacity)")]
        }
        if publisher.publishedStreams.isEmpty && publishing < capacity {
            return [violation(event, index: index, "the service refused \(id)'s publish while only \(publishing) of \(capacity) publish")]
        }
        return []
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: each verdict reads only the event and the world after its step.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
