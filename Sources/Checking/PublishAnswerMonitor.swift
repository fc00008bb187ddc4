import Simulation
import StageCore
import StageWorld

/// STR-3, STR-8: when the SDK asks the strategy whether to publish and the strategy says no
/// (shouldPublish false, or no streams to publish), the local participant is not publishing
/// nor attempting to once that step is over: background mode (shouldPublish false and a
/// refresh) stops publishing. The answer is read from the client's own declared strategy
/// (`Client.strategy`, what the script set), not from what the SDK recorded of it; a run whose
/// strategies are host objects (the Swift API) declares the default strategy, which says yes,
/// so it is never judged here.
public struct PublishAnswerMonitor: InvariantMonitor {
    public var name: String { "publishing-follows-the-publish-answer" }
    public var summary: String { "a participant whose strategy answered shouldPublish false (or no streams) is not publishing once the step that asked is over" }
    public var rules: [String] { ["STR-3", "STR-8"] }
    /// Clients whose SDK asked shouldPublish during the current step; emptied at its end.
    private var asked: [String] = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        if case .strategyQueried(let report) = event.kind, report.askedShouldPublish, !asked.contains(event.observer) {
            asked.append(event.observer)
        }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        defer { asked = [] }
        var found: [Violation] = []
        for observer in asked {
            guard let client = world.clientIndex(named: observer) else { continue }
            let strategy = world.clients[client].strategy
            guard !strategy.publish || strategy.streams.isEmpty else { continue }
            let state = world.clients[client].view.local.publishState
            guard state == .published || state == .attemptingPublish else { continue }
            let answer = strategy.publish ? "no streams to publish" : "shouldPublish false"
            found.append(Violation(invariant: name, rules: rules, time: time, observer: observer, eventIndex: lastEventIndex,
                                   message: "the strategy answered \(answer), yet \(observer) is \(state) after the step that asked"))
        }
        return found
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: the clients it holds are emptied at the end of the step that asked.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
