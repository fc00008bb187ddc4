import Simulation
import StageWorld

/// One seeded simulation of a world to an end time with every invariant monitor watching each
/// step: what scenario runs, reports and property runs all start from.
public struct MonitoredRun: Sendable {
    public var trace: Trace
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
        var monitors = MonitorSet(InvariantCatalog.all(settle: settle))
        simulator.run(until: end) { _, events, world in
            trace.append(contentsOf: events)
            monitors.observe(events, world: world)
            progress(world.now, trace.events.count)
        }
        if simulator.runaway == nil { monitors.finish(world: simulator.world) }
        self.runaway = simulator.runaway
        self.trace = trace
        self.violations = monitors.violations
        self.finalWorld = simulator.world
    }

    /// Replays a model checker's schedule: each action in turn, with every monitor watching,
    /// and the eventually-checks if the world ends quiescent. Stops at the first action that is
    /// not enabled; `unplayable` is its position.
    public init(world: World, schedule: [Action], settle: VirtualDuration = .seconds(5)) {
        var world = world
        var trace = Trace()
        var monitors = MonitorSet(InvariantCatalog.all(settle: settle))
        for (position, action) in schedule.enumerated() {
            guard world.enabledActions().contains(action) else {
                unplayable = position
                break
            }
            let events = world.apply(action)
            trace.append(contentsOf: events)
            monitors.observe(events, world: world)
        }
        self.trace = trace
        self.violations = monitors.violations + (unplayable == nil && world.isQuiescent ? monitors.quiescentViolations(world: world) : [])
        self.finalWorld = world
    }
}
