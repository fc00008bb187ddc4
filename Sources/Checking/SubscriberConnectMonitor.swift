import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// SUB-2, SUB-3: subscriberDidConnectToStream fires when media starts, and an unsubscribe
/// disconnects the subscriber. A remote publisher whose subscription renderers last heard, in
/// a step, reach `subscribed` (media flows from then on) has a connected OpenTok subscriber at
/// its observer once that step is over, whichever subscriber object it is: the first, or one
/// made by subscribing again after an unsubscribe, which connects anew. One whose subscription
/// renderers last heard end (`notSubscribed`: the strategy's answer, a lost capability, the
/// publisher stopping or leaving) has no subscriber still subscribing, connected or
/// reconnecting to it then. The subscriber's phase is read from the world; when the step's
/// renderer events start or end the subscription is what is judged here.
public struct SubscriberConnectMonitor: InvariantMonitor {
    public var name: String { "subscribed-media-connects-the-subscriber" }
    public var summary: String { "once renderers hear a remote's subscription reach subscribed, its observer's OpenTok subscriber is connected; once they hear it end, none is left subscribed" }
    public var rules: [String] { ["SUB-2", "SUB-3"] }
    /// (observer, publisher) pairs whose subscription reached `subscribed` or ended in the
    /// current step, each with the last of those it heard; emptied at the step's end.
    private var changed: [(observer: String, publisher: String, state: SubscribeState)] = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard case .renderer(.subscribeStateChanged(let info, let state, _)) = event.kind, !info.isLocal,
              state == .subscribed || state == .notSubscribed else { return [] }
        if let position = changed.firstIndex(where: { $0.observer == event.observer && $0.publisher == info.participantId }) {
            changed[position].state = state
        } else {
            changed.append((event.observer, info.participantId, state))
        }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        defer { changed = [] }
        var found: [Violation] = []
        for (observer, publisher, state) in changed {
            guard let client = world.clientIndex(named: observer),
                  let slot = world.clients[client].subscribers.last(where: { $0.publisherId == publisher }) else { continue }
            let phase = slot.state.phase
            let subscriber = "its subscriber #\(slot.subscriber) to \(slot.state.stream.streamId) is \(phase)"
            if state == .subscribed && phase != .connected {
                found.append(Violation(invariant: name, rules: rules, time: time, observer: observer, eventIndex: lastEventIndex,
                                       message: "the subscription to \(publisher) reached subscribed, yet \(subscriber), not connected"))
            } else if state == .notSubscribed && [.subscribing, .connected, .reconnecting].contains(phase) {
                found.append(Violation(invariant: name, rules: rules, time: time, observer: observer, eventIndex: lastEventIndex,
                                       message: "the subscription to \(publisher) ended, yet \(subscriber), not unsubscribed"))
            }
        }
        return found
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: what it holds is emptied at the end of the step that made it.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
