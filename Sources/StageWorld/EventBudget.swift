import Simulation

/// The most actions (events fired and transmissions lost) one simulated run may take. A run
/// that needs more is stopped there and reported as a `RunawayRun` naming the source whose
/// actions dominate, instead of hanging (issue 13). Not a spec rule: a limit of the simulator,
/// so that every scenario finishes.
public struct EventBudget: Hashable, Sendable {
    public var maximumActions: Int

    public init(maximumActions: Int) { self.maximumActions = maximumActions }

    public static let unlimited = EventBudget(maximumActions: .max)

    /// Every run may take this many actions, whatever its size.
    public static let baseActions = 50_000
    /// And this many more per participant and second of virtual time. The bundled scenarios and
    /// 300 generated ones take at most 9; a participant under the shortest keepalive the loader
    /// allows (100 ms pings), about 50.
    public static let actionsPerParticipantSecond = 1_000
    /// No default budget is larger, however long the run: about a minute of a debug build.
    public static let largestStandardActions = 5_000_000

    /// The default for a run of `participants` over `duration`.
    public static func standard(participants: Int, duration: VirtualDuration) -> EventBudget {
        let (whole, part) = duration.nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let seconds = Int(min(whole + (part > 0 ? 1 : 0), UInt64(largestStandardActions)))
        let scaled = baseActions + actionsPerParticipantSecond * max(participants, 1) * seconds
        return EventBudget(maximumActions: min(scaled, largestStandardActions))
    }
}

/// What a run's actions come from, per client: its host calls, its three timers, the stage
/// service's three timers for its connection, and its link's two directions (deliveries and
/// retransmissions). The description names the setting that drives each, so that a runaway
/// run (the event budget, issue 13) says what to change.
public enum EventSource: Int, CaseIterable, Sendable {
    case hostCalls, joinAttemptTimer, pingWatchdog, reconnectTimer, servicePings, pongDeadlines, reconnectGrace, uplink, downlink

    /// The source and client index of a pending event.
    static func of(_ event: PendingEvent) -> (source: EventSource, clientIndex: Int) {
        switch event {
        case .hostCall(let index, _): return (.hostCalls, index)
        case .timer(let index, .joinAttemptTimeout): return (.joinAttemptTimer, index)
        case .timer(let index, .pingWatchdog): return (.pingWatchdog, index)
        case .timer(let index, .reconnectAttempt): return (.reconnectTimer, index)
        case .serverTimer(.ping(let index, _)): return (.servicePings, index)
        case .serverTimer(.pongDeadline(let index, _, _)): return (.pongDeadlines, index)
        case .serverTimer(.reconnectGrace(let index, _)): return (.reconnectGrace, index)
        case .delivery(let envelope): return (envelope.isUplink ? .uplink : .downlink, envelope.clientIndex)
        }
    }

    public func description(client: String) -> String {
        switch self {
        case .hostCalls: "\(client)'s host calls (steps)"
        case .joinAttemptTimer: "\(client)'s join attempt timer (joinRetry.attemptTimeout)"
        case .pingWatchdog: "\(client)'s ping watchdog (keepalive.pingInterval + pongTimeout)"
        case .reconnectTimer: "\(client)'s reconnect timer (reconnect.backoff)"
        case .servicePings: "the service's pings to \(client) (keepalive.pingInterval)"
        case .pongDeadlines: "the service's pong deadlines for \(client) (keepalive.pongTimeout)"
        case .reconnectGrace: "the service's reconnect grace timer for \(client) (keepalive.reconnectGrace)"
        case .uplink: "\(client)'s uplink: frames to the service and their retransmissions (network.retransmit)"
        case .downlink: "\(client)'s downlink: frames from the service and their retransmissions (network.retransmit)"
        }
    }
}

/// A run stopped because it took its whole event budget, and the sources whose actions
/// dominated (issue 13: no scenario may hang; a limit of the simulator, not a spec rule).
public struct RunawayRun: Hashable, Sendable, CustomStringConvertible {
    /// One source's share of the budget.
    public struct Share: Hashable, Sendable {
        /// The client the source belongs to.
        public var clientName: String
        public var source: EventSource
        public var actions: Int

        var description: String { "\(source.description(client: clientName)): \(actions)" }
    }

    public var budget: EventBudget
    /// The virtual time the run had reached when it was stopped.
    public var stoppedAt: VirtualTime
    /// The busiest sources, most actions first (at most three).
    public var busiest: [Share]

    public var description: String {
        "the run took its whole event budget of \(budget.maximumActions) actions by \(stoppedAt) and was stopped there; "
            + "the busiest sources: \(busiest.map(\.description).joined(separator: "; ")). "
            + "Lengthen the setting named in parentheses, or raise eventBudget if the scenario really needs more"
    }
}

/// The actions a run has taken, counted per client and source.
public struct EventTally: Sendable {
    private var counts: [Int]
    public private(set) var total = 0

    public init(clients: Int) {
        counts = Array(repeating: 0, count: max(clients, 1) * EventSource.allCases.count)
    }

    public mutating func count(_ event: PendingEvent) {
        total += 1
        let (source, client) = EventSource.of(event)
        guard client >= 0 else { return }
        counts[client * EventSource.allCases.count + source.rawValue] += 1
    }

    /// The runaway report for `world`: the three sources with the most actions (in client and
    /// source order on a tie).
    public func runaway(budget: EventBudget, world: World) -> RunawayRun {
        let busiest = counts.indices.filter { counts[$0] > 0 }.sorted { (counts[$0], $1) > (counts[$1], $0) }.prefix(3).map { slot in
            let (client, source) = slot.quotientAndRemainder(dividingBy: EventSource.allCases.count)
            return RunawayRun.Share(
                clientName: world.clients.indices.contains(client) ? world.clients[client].name : "server",
                source: EventSource(rawValue: source) ?? .hostCalls, actions: counts[slot]
            )
        }
        return RunawayRun(budget: budget, stoppedAt: world.now, busiest: busiest)
    }
}
