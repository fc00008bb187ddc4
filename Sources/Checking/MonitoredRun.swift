import Simulation
import StageWorld

/// How the end of a scheduled replay is judged.
public enum ScheduleEnd: String, Sendable, CaseIterable {
    /// The model checker's: the eventually-checks, if the world ends quiescent.
    case quiescent
    /// A timed run's (the fuzzer's recordings): the end-of-run checks on the final world, as
    /// the seeded simulator makes them.
    case timed
}

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
    /// `progress` hears the virtual time and the trace's event count after each step.
    public init(
        world: World, seed: UInt64, until end: VirtualTime, settle: VirtualDuration = .seconds(5),
        eventBudget: EventBudget = .unlimited, progress: (VirtualTime, Int) -> Void = { _, _ in }
    ) {
        var simulator = Simulator(world: world, seed: seed, eventBudget: eventBudget)
        var trace = Trace()
        var monitors = MonitorSet(settle: settle)
        var actions: [Action] = []
        simulator.run(until: end) { action, events, world in
            actions.append(action)
            trace.append(contentsOf: events)
            monitors.observe(events, world: world)
            progress(world.now, trace.events.count)
        }
        if simulator.runaway == nil { monitors.finish(world: simulator.world) }
        self.runaway = simulator.runaway
        self.actions = actions
        self.trace = trace
        self.violations = monitors.violations
        self.finalWorld = simulator.world
    }

    /// Replays a schedule (a model checker's counterexample or a recorded timed run): each
    /// action in turn, with every monitor watching, then the checks `end` names. Stops at the
    /// first action that names no pending event (`World.canReplay`); `unplayable` is its position.
    public init(world: World, schedule: [Action], settle: VirtualDuration = .seconds(5), end: ScheduleEnd = .quiescent) {
        var world = world
        var trace = Trace()
        var monitors = MonitorSet(settle: settle)
        for (position, action) in schedule.enumerated() {
            guard world.canReplay(action) else {
                unplayable = position
                break
            }
            let events = world.apply(action)
            trace.append(contentsOf: events)
            monitors.observe(events, world: world)
        }
        var endViolations: [Violation] = []
        switch end {
        case _ where unplayable != nil: break
        case .quiescent where world.isQuiescent: endViolations = monitors.quiescentViolations(world: world)
        case .quiescent: break
        case .timed: monitors.finish(world: world)
        }
        self.actions = Array(schedule.prefix(unplayable ?? schedule.count))
        self.trace = trace
        self.violations = monitors.violations + endViolations
        self.finalWorld = world
    }
}

extension World {
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
