import Drivers
import Scenario
import Simulation
import StageWorld

/// Prints scenario runs for a terminal: header, timeline, expectations, invariants, hash.
struct RunPrinter {
    let verbose: Bool

    func printRun(_ run: ScenarioRun, timeline: Bool) {
        let covers = run.scenario.covers.isEmpty ? "" : " [\(run.scenario.covers.joined(separator: ", "))]"
        print("\n== \(run.scenario.path): \(run.scenario.name)\(covers)  seed \(run.seed)")
        if let swarm = run.swarm {
            print("  swarm faults: \(swarm.parameters.joined(separator: ", "))")
            print("  (expectations are not checked under --swarm; the invariants are)")
        }
        if timeline { printTimeline(run) }
        for result in run.expectationResults {
            print("  \(result.passed ? "PASS" : "FAIL") line \(result.expectation.line): \(result.expectation.description) (\(result.detail))")
        }
        run.exhaustiveResults.forEach(printExhaustive)
        if run.violations.isEmpty {
            print("  invariants: all hold")
        } else {
            for violation in run.violations { print("  VIOLATION \(violation)") }
        }
        print("  trace hash: \(XXH3.hex(run.traceHash))  (\(run.trace.count) events)")
        if !run.passed {
            print("  replay: stagesim run \(run.scenario.path) --seed \(run.seed)\(run.swarm == nil ? "" : " --swarm")")
        }
    }

    /// The timeline: host calls marked `>`, and `!!` on each event an invariant monitor
    /// flagged, followed by what it found.
    private func printTimeline(_ run: ScenarioRun) {
        let width = max(8, run.scenario.participants.map(\.name.count).max() ?? 0)
        let flagged = Dictionary(grouping: run.violations.filter { $0.eventIndex != nil }, by: { $0.eventIndex ?? 0 })
        for (index, event) in run.trace.events.enumerated() where verbose || Self.checkable(event) || flagged[index] != nil {
            let marker = flagged[index] != nil ? "!!" : (event.category == "host" ? "> " : "  ")
            print("  \(event.time.description.padded(to: 8)) \(marker) \(event.observer.padded(to: width))  \(event.detail)")
            for violation in flagged[index] ?? [] { print("           ^^ \(violation.invariant) [\(violation.rules.joined(separator: ", "))]: \(violation.message)") }
        }
    }

    /// An exhaustive observer's verdict; when it fails, the `-`/`+` diff of expected against
    /// actual events under it.
    private func printExhaustive(_ result: ExhaustiveResult) {
        print("  \(result.passed ? "PASS" : "FAIL") line \(result.observer.line): \(result.summary)")
        guard !result.passed else { return }
        print("      (- expected, not seen there; + seen, not expected)")
        for line in result.diff { print("      \(line.text)") }
    }

    /// What the default timeline shows: host calls and what expectations can check, that is
    /// renderer and subscriber callbacks, errors, protocol errors, composition layouts, and the
    /// service's refusals with their reasons. `--verbose` adds the network and the rest.
    static func checkable(_ event: TraceEvent) -> Bool {
        switch event.kind {
        case .hostCall, .renderer, .subscriber, .sdkError, .protocolError, .layout, .service(.refused): true
        default: false
        }
    }

    /// The summary table of a directory run, then the files and directories that could not be
    /// run (`problems`, already reported on stderr as they were met).
    func printSummary(_ runs: [ScenarioRun], problems: [String]) {
        let nameWidth = min(64, runs.map { $0.scenario.path.count }.max() ?? 8)
        print("\n" + "scenario".padded(to: nameWidth) + "  seed        expect  invariants  trace hash        result")
        for run in runs {
            let passedExpectations = run.expectationResults.filter(\.passed).count + run.exhaustiveResults.filter(\.passed).count
            let expect = "\(passedExpectations)/\(run.expectationResults.count + run.exhaustiveResults.count)"
            let invariants = run.violations.isEmpty ? "ok" : "\(run.violations.count) broken"
            print(run.scenario.path.padded(to: nameWidth) + "  " + String(run.seed).padded(to: 10) + "  " + expect.padded(to: 6) + "  "
                  + invariants.padded(to: 10) + "  " + XXH3.hex(run.traceHash) + "  " + (run.passed ? "pass" : "FAIL"))
        }
        let failed = runs.filter { !$0.passed }.count
        if !problems.isEmpty {
            print("\nnot run:")
            problems.forEach { print("  \($0)") }
        }
        print("\n\(runs.count - failed) passed, \(failed) failed" + (problems.isEmpty ? "" : ", \(problems.count) not run"))
    }
}
