import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// SUB-2: subscriberDidConnectToStream fires when media starts. A remote publisher whose
/// subscription renderers hear reach `subscribed` (media flows from then on) has a connected
/// OpenTok subscriber at its observer once that step is over, whichever subscriber object it
/// is: the first, or one made by subscribing again after an unsubscribe (SUB-3), which
/// connects anew. The subscriber's phase is read from the world; when the step's renderer
/// events start media is what is judged here.
public struct SubscriberConnectMonitor: InvariantMonitor {
    public var name: String { "subscribed-media-connects-the-subscriber" }
    public var summary: String { "once renderers hear a remote's subscription reach subscribed, its observer's OpenTok subscriber is connected" }
    public var rules: [String] { ["SUB-2", "SUB-3"] }
    /// (observer, publisher) pairs whose subscription reached `subscribed` in the current step;
    /// emptied at its end.
    private var started: [(observer: String, publisher: String)] = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        if case .renderer(.subscribeStateChanged(let info, .subscribed, _)) = event.kind, !info.isLocal {
            started.append((event.observer, info.participantId))
        }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        defer { started = [] }
        var found: [Violation] = []
        for (observer, publisher) in started {
            guard let client = world.clientIndex(named: observer),
                  let slot = world.clients[client].subscribers.last(where: { $0.publisherId == publisher }),
                  slot.state.phase != .connected else { continue }
            found.append(Violation(invariant: name, rules: rules, time: time, observer: observer, eventIndex: lastEventIndex,
                                   message: "the subscription to \(publisher) reached subscribed, yet its subscriber #\(slot.subscriber) to \(slot.state.stream.streamId) is \(slot.state.phase), not connected"))
        }
        return found
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: what it holds is emptied at the end of the step that made it.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
