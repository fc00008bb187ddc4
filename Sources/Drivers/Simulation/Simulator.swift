import Checking
import Simulation
import StageWorld

/// The timed driver: advances the virtual clock to the earliest pending event (ties by
/// insertion order), loses transmissions a partition cuts, and draws random losses from its
/// own PRNG stream (`faults`). It takes at most `eventBudget` actions, then stops and says why
/// in `runaway`. Each action it chooses goes through its `StepLoop`.
public struct Simulator: Sendable {
    /// The loop the simulator steps: the world, the monitors watching, the recording.
    public private(set) var loop: StepLoop
    private var faults: SplitMix64
    public let eventBudget: EventBudget
    private var tally: EventTally
    /// Set when the run took its whole event budget: nothing more happens after that.
    public private(set) var runaway: RunawayRun?

    /// `monitors` watch every step; `recording` keeps the actions and their events (`StepLoop`)
    /// in `trace` (a streamed trace keeps neither).
    public init(
        world: World, seed: UInt64, eventBudget: EventBudget = .unlimited, monitors: MonitorSet = MonitorSet([]),
        recording: Bool = false, trace: Trace = Trace()
    ) {
        self.loop = StepLoop(world: world, monitors: monitors, recording: recording ? Recording(trace: trace) : nil)
        self.faults = SplitMix64.stream(seed: seed, name: "faults")
        self.eventBudget = eventBudget
        self.tally = EventTally(clients: world.clients.count)
    }

    /// The world after the last step.
    public var world: World { loop.world }

    /// The next action by time, counted against the budget; nil when nothing is pending at or
    /// before `end`, or the budget is spent.
    private mutating func nextAction(until end: VirtualTime) -> Action? {
        let world = loop.world
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
        until end: VirtualTime, host: (any HostStrategies)? = nil, observe: (Action, [TraceEvent], World) -> Void = { _, _, _ in }
    ) {
        while let step = step(until: end, host: host) {
            observe(step.action, step.outcome.events, loop.world)
        }
    }

    /// One step of `run`: takes the next action by time and steps the loop with it; nil when
    /// nothing is pending at or before `end`, or the budget is spent. Lets a driver call back
    /// into host code between steps (the Swift API's renderers may schedule host calls).
    public mutating func step(until end: VirtualTime, host: (any HostStrategies)? = nil) -> (action: Action, outcome: StepOutcome)? {
        guard let action = nextAction(until: end) else { return nil }
        return (action, loop.step(action, host: host))
    }

    /// Schedules a host call at a virtual time (no earlier than the world's clock).
    public mutating func scheduleHostCall(_ call: HostCall, clientIndex: Int, at time: VirtualTime) {
        loop.world.scheduleHostCall(call, clientIndex: clientIndex, at: max(time, loop.world.now))
    }
}
