import Checking
import Simulation
import Scenario
import StageWorld

/// One seeded simulation of a world to an end time with every invariant monitor watching each
/// step: what scenario runs, reports and property runs all start from.
public struct MonitoredRun: Sendable {
    public var trace: Trace
    /// The actions taken, in order: a schedule that replays this run exactly.
    public var actions: [Action] = []
    public var violations: [Violation]
    public var finalWorld: World
    /// For a scheduled replay: the position of the first action that was not enabled.
    public var unplayable: Int?
    /// Set when the run took its whole event budget and was stopped (no end-of-run checks then).
    public var runaway: RunawayRun?

    /// `settle`: how long the network must be quiet before views must have converged;
    /// `progress` hears the virtual time and the trace's event count after each step; `trace`
    /// records the run (a streamed one keeps neither events nor actions); without `recording`
    /// nothing is recorded, `trace` and `actions` stay empty and only the verdicts count.
    public init(
        world: World, seed: UInt64, until end: VirtualTime, settle: VirtualDuration = .seconds(5),
        eventBudget: EventBudget = .unlimited, trace: Trace = Trace(), recording: Bool = true,
        progress: (VirtualTime, Int) -> Void = { _, _ in }
    ) {
        var simulator = Simulator(
            world: world, seed: seed, eventBudget: eventBudget, monitors: MonitorSet(settle: settle), recording: recording, trace: trace
        )
        var eventCount = 0
        simulator.run(until: end) { _, events, world in
            eventCount += events.count
            progress(world.now, eventCount)
        }
        var loop = simulator.loop
        if simulator.runaway == nil { loop.finish() }
        self.runaway = simulator.runaway
        self.actions = loop.actions
        self.trace = loop.trace
        self.violations = loop.monitors.violations
        self.finalWorld = loop.world
    }

    /// Replays a schedule (a model checker's counterexample or a recorded timed run): each
    /// action in turn, with every monitor watching, then the checks `end` names. Skips a fire of
    /// an event that is no longer pending (`World.namesSpentEvent`: a timer the world has since
    /// cancelled, which a schedule recorded before timers were cancelled fires as a no-op).
    /// Stops at the first other action that names no pending event (`World.canReplay`);
    /// `unplayable` is its position.
    /// A counterexample (`end` quiescent) keeps time as the checker did, by timers only.
    /// `trace` records the replay, as for a timed run.
    public init(
        world: World, schedule: [Action], settle: VirtualDuration = .seconds(5), end: ScheduleEnd = .quiescent, trace: Trace = Trace()
    ) {
        var world = world
        if end == .quiescent { world.timekeeping = .timersOnly }
        var loop = StepLoop(world: world, monitors: MonitorSet(settle: settle), recording: Recording(trace: trace))
        for (position, action) in schedule.enumerated() where !loop.world.namesSpentEvent(action) {
            guard loop.world.canReplay(action) else {
                unplayable = position
                break
            }
            loop.step(action)
        }
        var endViolations: [Violation] = []
        switch end {
        case _ where unplayable != nil: break
        case .quiescent where loop.world.isQuiescent: endViolations = loop.monitors.quiescentViolations(world: loop.world)
        case .quiescent: break
        case .timed: loop.finish()
        }
        self.actions = loop.actions
        self.trace = loop.trace
        self.violations = loop.monitors.violations + endViolations
        self.finalWorld = loop.world
    }
}

extension World {
    /// Whether `action` fires an event that was scheduled and is no longer pending: one fired
    /// already, or a timer cancelled as spent (`World.cancelSpentTimers`). Firing it would
    /// change nothing.
    public func namesSpentEvent(_ action: Action) -> Bool {
        guard case .fire(let sequence) = action else { return false }
        return sequence < pending.nextSequence && pending.entry(sequence: sequence) == nil
    }

    /// Whether a schedule may take `action` here: it names a pending event, and a drop names a
    /// transmission. Looser than `enabledActions` on purpose: a recorded timed run delivers
    /// reordered frames out of sequence, which the checker's per-link order never does.
    public func canReplay(_ action: Action) -> Bool {
        switch action {
        case .fire(let sequence): return pending.entry(sequence: sequence) != nil
        case .drop(let sequence):
            guard case .delivery = pending.entry(sequence: sequence)?.payload else { return false }
            return true
        }
    }
}
