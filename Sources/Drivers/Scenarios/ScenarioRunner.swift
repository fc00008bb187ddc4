import Checking
import Scenario
import Simulation
import StageWorld

/// The outcome of one expectation against a finished trace.
public struct ExpectationResult: Hashable, Sendable {
    public var expectation: Expectation
    public var passed: Bool
    /// The matching events' virtual times (the first few), or why it failed.
    public var detail: String
}

/// Everything one scenario run produced.
public struct ScenarioRun: Sendable {
    public var scenario: Scenario
    public var seed: UInt64
    public var trace: Trace
    public var expectationResults: [ExpectationResult]
    /// One verdict per `exhaustive:` observer, in file order.
    public var exhaustiveResults: [ExhaustiveResult] = []
    public var violations: [Violation]
    /// The actions taken, in order: the run's schedule.
    public var actions: [Action]
    public var finalWorld: World
    /// The faults drawn for a `--swarm` run, whose parameters are printed under the seed.
    public var swarm: SwarmFaults?

    public var passed: Bool {
        violations.isEmpty && expectationResults.allSatisfy(\.passed) && exhaustiveResults.allSatisfy(\.passed)
    }
    public var traceHash: UInt64 { trace.hash }
}

/// The scenario driver: the seeded simulator, fed the script's host calls, watched by every
/// invariant monitor, then judged against the script's expectations.
public enum ScenarioRunner {
    /// Runs `scenario`; with `swarm`, under a fault plan drawn from the seed (NET-2), judged by
    /// the invariants alone. A scenario with a `schedule:` replays its fixed list of actions,
    /// recorded under its own seed, which another seed or a drawn fault plan would only derail,
    /// so it runs as written whatever `seed` and `swarm` say. `progress` hears the virtual time and event count after each step.
    /// `trace` records a timed run; a streamed one (no events kept) still keeps them when the
    /// scenario's expectations read them. Without `recording` a timed run whose expectations
    /// read no events keeps neither trace nor actions (its verdicts are the same).
    public static func run(
        _ original: Scenario, seed: UInt64? = nil, swarm: Bool = false, trace: Trace = Trace(), recording: Bool = true,
        progress: (VirtualTime, Int) -> Void = { _, _ in }
    ) -> ScenarioRun {
        let isScheduled = original.schedule != nil
        let seed = isScheduled ? original.seed : seed ?? original.seed
        let (scenario, faults) = swarm && !isScheduled ? original.underSwarmFaults(seed: seed) : (original, nil)
        let needsEvents = !scenario.expectations.isEmpty || !scenario.exhaustive.isEmpty
        let run = monitoredRun(scenario, seed: seed, trace: needsEvents ? trace.keepingEvents() : trace, recording: recording || needsEvents, progress: progress)
        let results = evaluate(scenario.expectations, trace: run.trace)
        var scenarioRun = ScenarioRun(
            scenario: scenario, seed: seed, trace: run.trace, expectationResults: results,
            violations: run.violations + unplayableViolation(run, scenario) + runawayViolation(run), actions: run.actions,
            finalWorld: run.finalWorld, swarm: faults
        )
        scenarioRun.exhaustiveResults = scenario.exhaustive.map {
            ExhaustiveCheck.check($0, expectations: scenario.expectations, trace: run.trace)
        }
        return scenarioRun
    }

    /// The timed simulator, or the scenario's schedule when it has one.
    private static func monitoredRun(
        _ scenario: Scenario, seed: UInt64, trace: Trace, recording: Bool, progress: (VirtualTime, Int) -> Void
    ) -> MonitoredRun {
        let world = scenario.makeWorld(seed: seed)
        guard let schedule = scenario.schedule else {
            return MonitoredRun(
                world: world, seed: seed, until: .zero + scenario.duration, settle: scenario.settle,
                eventBudget: scenario.runEventBudget, trace: trace, recording: recording, progress: progress
            )
        }
        return MonitoredRun(world: world, schedule: schedule.map(\.action), settle: scenario.settle, end: scenario.scheduleEnd, trace: trace)
    }

    /// A schedule step that could not be taken: the file no longer matches the model.
    private static func unplayableViolation(_ run: MonitoredRun, _ scenario: Scenario) -> [Violation] {
        guard let position = run.unplayable, let step = scenario.schedule?[position] else { return [] }
        return [Violation(
            invariant: "schedule-replays", rules: [], time: run.finalWorld.now, observer: "schedule", eventIndex: nil,
            message: "line \(step.line): '\(step.action.scheduleText)' is not pending after \(position) steps; the model has changed since the schedule was written"
        )]
    }

    /// A run that took its whole event budget was stopped: a failure that names the runaway
    /// source, so that the CLI prints it and the fuzzer records it like any broken invariant.
    private static func runawayViolation(_ run: MonitoredRun) -> [Violation] {
        guard let runaway = run.runaway else { return [] }
        let observer = runaway.busiest.first?.clientName ?? "simulator"
        return [Violation(
            invariant: eventBudgetInvariant, rules: [], time: runaway.stoppedAt, observer: observer, eventIndex: nil, message: runaway.description
        )]
    }

    /// The name a runaway run's failure goes by.
    public static let eventBudgetInvariant = "run-within-event-budget"
}
