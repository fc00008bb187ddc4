import Simulation

/// The timed driver: advances the virtual clock to the earliest pending event (ties by
/// insertion order) and draws transmission losses from its own PRNG stream (`faults`).
public struct Simulator: Sendable {
    public private(set) var world: World
    private var faults: SplitMix64

    public init(world: World, seed: UInt64) {
        self.world = world
        self.faults = SplitMix64.stream(seed: seed, name: "faults")
    }

    /// The next action by time, or nil when nothing is pending at or before `end`.
    public mutating func nextAction(until end: VirtualTime) -> Action? {
        guard let entry = world.pending.first, entry.due <= end else { return nil }
        if case .delivery(let envelope) = entry.payload,
           faults.chance(world.network.links[envelope.clientIndex].lossProbability) {
            return .drop(sequence: entry.sequence)
        }
        return .fire(sequence: entry.sequence)
    }

    /// Runs until nothing is pending at or before `end`; `observe` sees each action's events
    /// with the world after it.
    public mutating func run(until end: VirtualTime, observe: (Action, [TraceEvent], World) -> Void) {
        while let action = nextAction(until: end) {
            let events = world.apply(action)
            observe(action, events, world)
        }
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
