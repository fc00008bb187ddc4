import Simulation

/// The timed driver: advances the virtual clock to the earliest pending event (ties by
/// insertion order), loses transmissions a partition cuts, and draws random losses from its
/// own PRNG stream (`faults`). It takes at most `eventBudget` actions, then stops and says why
/// in `runaway`.
public struct Simulator: Sendable {
    public private(set) var world: World
    private var faults: SplitMix64
    public let eventBudget: EventBudget
    private var tally: EventTally
    /// Set when the run took its whole event budget: nothing more happens after that.
    public private(set) var runaway: RunawayRun?

    public init(world: World, seed: UInt64, eventBudget: EventBudget = .unlimited) {
        self.world = world
        self.faults = SplitMix64.stream(seed: seed, name: "faults")
        self.eventBudget = eventBudget
        self.tally = EventTally(clients: world.clients.count)
    }

    /// The next action by time, counted against the budget; nil when nothing is pending at or
    /// before `end`, or the budget is spent.
    private mutating func nextAction(until end: VirtualTime) -> Action? {
        guard runaway == nil, let entry = world.pending.first, entry.due <= end else { return nil }
        guard tally.total < eventBudget.maximumActions else {
            runaway = tally.runaway(budget: eventBudget, world: world)
            return nil
        }
        tally.count(entry.payload)
        if case .delivery(let envelope) = entry.payload {
            let cut = world.isCut(envelope, at: max(world.now, entry.due))
            if cut || faults.chance(world.config.links[envelope.clientIndex].lossProbability) {
                return .drop(sequence: entry.sequence)
            }
        }
        return .fire(sequence: entry.sequence)
    }

    /// Runs until nothing is pending at or before `end`, or the budget is spent; `observe` sees
    /// each action's events with the world after it. `host` supplies Swift-API strategy
    /// objects (`World.apply`).
    public mutating func run(
        until end: VirtualTime, host: (any HostStrategies)? = nil, observe: (Action, [TraceEvent], World) -> Void
    ) {
        while let action = nextAction(until: end) {
            let events = world.apply(action, host: host)
            observe(action, events, world)
        }
    }

    /// One step of `run`: takes the next action by time, applies it and returns it with its
    /// events; nil when nothing is pending at or before `end`, or the budget is spent. Lets a
    /// driver call back into host code between steps (the Swift API's renderers may schedule
    /// host calls).
    public mutating func step(until end: VirtualTime, host: (any HostStrategies)? = nil) -> (action: Action, events: [TraceEvent])? {
        guard let action = nextAction(until: end) else { return nil }
        return (action, world.apply(action, host: host))
    }

    /// Schedules a host call at a virtual time (no earlier than the world's clock).
    public mutating func scheduleHostCall(_ call: HostCall, clientIndex: Int, at time: VirtualTime) {
        world.scheduleHostCall(call, clientIndex: clientIndex, at: max(time, world.now))
    }
}

/// A run's events in order, with their canonical JSON-lines form and its XXH3-64 hash.
public struct Trace: Sendable {
    public private(set) var events: [TraceEvent] = []

    public init() {}

    public mutating func append(contentsOf newEvents: [TraceEvent]) { events += newEvents }

    /// The trace file: one canonical JSON line per event.
    public var jsonLines: String { events.map(\.jsonLine).joined() }

    /// XXH3-64 (seed 0) of the trace file's bytes: `xxhsum -H3 trace.jsonl` prints the same.
    public var hash: UInt64 { XXH3.hash64(Array(jsonLines.utf8)) }
}
