import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// SUB-1: streamCreated fires when a client publishes, and a client tells its own stream from
/// others' by comparing connection ids, so a stream carries the connection id of the client
/// that published it. Each remote publisher's participantDidJoin (RND-2: a join is a publish)
/// comes with a streamCreated for it to the same observer in the same step, and the stream
/// carries the publisher's connection id: the service gives each admitted client its
/// participant id as the connection id of its offer, and a client refuses an offer with any
/// other (SIG-8).
public struct StreamConnectionMonitor: InvariantMonitor {
    public var name: String { "publishes-create-streams-of-their-connection" }
    public var summary: String { "a remote publish told to renderers comes with a streamCreated, whose stream carries the publisher's connection id" }
    public var rules: [String] { ["SUB-1"] }
    /// Remote publishers announced to renderers in the current step without a streamCreated
    /// yet, as (observer, participant id); emptied at the end of the step.
    private var unannounced: [String] = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        switch event.kind {
        case .renderer(.participantDidJoin(let info)) where !info.isLocal:
            unannounced.append(event.observer + "/" + info.participantId)
        case .subscriber(let told):
            guard case .streamCreated(let stream) = told.event else { return [] }
            unannounced.removeAll { $0 == event.observer + "/" + told.publisherId }
            guard stream.connectionId != told.publisherId else { return [] }
            return [violation(event, index: index, "stream \(stream.streamId) of \(told.publisherId) carries connection \(stream.connectionId), not its publisher's")]
        default:
            break
        }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        defer { unannounced = [] }
        return unannounced.map { pair in
            let slash = pair.firstIndex(of: "/") ?? pair.endIndex
            let observer = String(pair[..<slash]), publisher = String(pair[slash...].dropFirst())
            return Violation(invariant: name, rules: rules, time: time, observer: observer, eventIndex: lastEventIndex,
                             message: "\(publisher) joined as a publisher, but no streamCreated came for it")
        }
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: what it holds is emptied at the end of the step that made it.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
