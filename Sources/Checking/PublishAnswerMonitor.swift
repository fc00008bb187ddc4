import Simulation
import StageCore
import StageWorld

/// STR-3, STR-8: the SDK asks the strategy whether to publish once it is connected, and
/// publishes as the strategy answers.
/// - A step in which a client became connected (a join or a reconnect accepted) with a token
///   that allows publishing asks shouldPublish (STR-3: "asked once connected"). The token is
///   the one the client holds (`Client.claims`), not the SDK's view of it.
/// - When the SDK asks and the strategy says no (shouldPublish false, or no streams to
///   publish), the local participant is not publishing nor attempting to once that step is
///   over: background mode (shouldPublish false and a refresh) stops publishing. The answer is
///   read from the client's own declared strategy (`Client.strategy`, what the script set), not
///   from what the SDK recorded of it; a run whose strategies are host objects (the Swift API)
///   declares the default strategy, which says yes, so it is never judged on this side.
/// - When the strategy says yes with streams to publish (its answer itself,
///   `StrategyQueryReport.streamsReturned`, so host objects are judged too), a connected
///   participant whose token allows publishing is publishing or attempting to once that step
///   is over.
public struct PublishAnswerMonitor: InvariantMonitor {
    public var name: String { "publishing-follows-the-publish-answer" }
    public var summary: String { "shouldPublish is asked once connected, and a participant publishes (or not) as the strategy answered once the step that asked is over" }
    public var rules: [String] { ["STR-3", "STR-8"] }
    /// Clients whose SDK asked shouldPublish during the current step, each with whether its
    /// last answer in the step was yes with streams to publish; emptied at its end.
    private var asked: [(observer: String, yes: Bool)] = []
    /// Clients whose renderers heard `connected` during the current step; emptied at its end.
    private var connected: [String] = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        switch event.kind {
        case .strategyQueried(let report) where report.askedShouldPublish:
            let yes = report.streamsReturned.map { !$0.isEmpty } ?? false
            if let position = asked.firstIndex(where: { $0.observer == event.observer }) {
                asked[position].yes = yes
            } else {
                asked.append((event.observer, yes))
            }
        case .renderer(.connectionStateChanged(.connected, _)) where !connected.contains(event.observer):
            connected.append(event.observer)
        default:
            break
        }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        defer {
            asked = []
            connected = []
        }
        var found: [(observer: String, message: String)] = []
        for observer in connected where !asked.contains(where: { $0.observer == observer }) {
            guard let client = world.clientIndex(named: observer), Self.mayPublish(world.clients[client]) else { continue }
            found.append((observer, "\(observer) connected with a token that allows publishing, yet its SDK did not ask shouldPublish in that step"))
        }
        for (observer, yes) in asked {
            guard let client = world.clientIndex(named: observer) else { continue }
            let state = world.clients[client].view.local.publishState
            let publishing = state == .published || state == .attemptingPublish
            let strategy = world.clients[client].strategy
            if (!strategy.publish || strategy.streams.isEmpty) && publishing {
                let answer = strategy.publish ? "no streams to publish" : "shouldPublish false"
                found.append((observer, "the strategy answered \(answer), yet \(observer) is \(state) after the step that asked"))
            } else if yes && !publishing && Self.mayPublish(world.clients[client]) {
                found.append((observer, "the strategy answered yes with streams to publish, yet \(observer) is \(state) after the step that asked"))
            }
        }
        return found.map { Violation(invariant: name, rules: rules, time: time, observer: $0.observer, eventIndex: lastEventIndex, message: $0.message) }
    }

    /// Connected, with a token that allows publishing.
    private static func mayPublish(_ client: Client) -> Bool {
        client.view.local.connectionState == .connected && client.claims?.capabilities.canPublish == true
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: the clients it holds are emptied at the end of the step.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
