import ArgumentParser
import Checking
import Drivers
import Foundation
import Pictures
import Scenario
import StageWorld

extension ExplorationOrder: EnumerableFlag {
    public static func name(for value: ExplorationOrder) -> NameSpecification { .customLong(value.rawValue) }

    public static func help(for value: ExplorationOrder) -> ArgumentHelp? {
        switch value {
        case .breadthFirst: "Breadth-first on every core: shortest counterexamples (default)."
        case .depthFirst: "Depth-first on one core: less memory; counterexamples need not be shortest."
        }
    }
}

/// `stagesim check <scenario>`: the model checker over the scenario's initial world.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Explore every interleaving of a scenario's world within bounds and check every invariant.",
        discussion: """
            Deliveries, timers, host calls (in script order per participant) and up to --max-drops losses are tried in \
            every order; absolute time is abstracted away, and partitions, jitter, duplication and reordering are not \
            explored. A violation is printed as a timeline and written as a scenario file that `stagesim run` replays.
            Exit status: 0 when no invariant breaks within the bounds, 1 on a violation, 2 for a bad scenario file.
            """
    )

    @Argument(help: "The scenario file whose initial world is explored.") var path: String
    static let depthRange = NumericRange<Int>(1...1_000_000)
    static let stateCount = NumericRange<Int>(1...1_000_000_000)
    static let dropCount = NumericRange<Int>(0...1_000)

    @Option(parsing: .unconditional, help: "Longest path of actions from the initial world (\(CheckCommand.depthRange)).", transform: CheckCommand.depthRange.parse)
    var depth = 100
    @Option(parsing: .unconditional, help: "Distinct states before the search stops (\(CheckCommand.stateCount)).", transform: CheckCommand.stateCount.parse)
    var maxStates = 2_000_000
    @Option(parsing: .unconditional, help: "Transmissions that may be lost on one path (\(CheckCommand.dropCount)).", transform: CheckCommand.dropCount.parse)
    var maxDrops = 1
    @Flag var order = ExplorationOrder.breadthFirst
    @Flag(help: "Treat interchangeable participants (same SDK, strategy, settings and token shape) as one.") var symmetry = false
    @Flag(help: "Keep whole canonical states instead of 64-bit fingerprints (small models; no collision risk).") var exact = false
    @Option(parsing: .unconditional, help: "Worker threads for breadth-first search (\(OptionRanges.jobs); default: every core).", transform: OptionRanges.jobs.parse)
    var jobs = min(ProcessInfo.processInfo.activeProcessorCount, 256)
    @Option(help: "Where to write a counterexample scenario (default: Reports/counterexamples/<scenario>-<invariant>.yaml).") var out: String?
    @Option(help: "Switch on a deliberate bug (debug builds only; `stagesim invariants --mutants` lists them).") var mutant: String?

    func run() throws {
        try MutantOption.withMutant(mutant, check)
    }

    private func check() throws {
        try checkOutputTarget()
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader.load(path: path).forChecking
        } catch let error as ScenarioError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        var options = CheckOptions()
        (options.maxDepth, options.maxStates, options.maxDrops, options.order) = (depth, maxStates, maxDrops, order)
        (options.symmetry, options.exact, options.jobs) = (symmetry, exact, jobs)
        let checker = ModelChecker(world: scenario.makeWorld(seed: scenario.seed), options: options)
        print("checking \(scenario.path): \(scenario.name)")
        print("bounds: depth \(depth), \(maxStates) states, \(maxDrops) drops; \(order == .breadthFirst ? "breadth-first, \(jobs) jobs" : "depth-first, 1 job")"
              + "; \(exact ? "exact states" : "XXH3-64 fingerprints")")
        if symmetry { print("symmetry: " + (checker.symmetry.classes.isEmpty ? "no interchangeable participants" : checker.symmetry.classes.map { $0.joined(separator: " ") }.joined(separator: "; "))) }
        var line = CheckProgressLine()
        let report = checker.run { line.update($0) }
        line.finish()
        CheckReportPrinter(report: report, symmetry: symmetry).printSummary()
        guard let counterexample = report.counterexample else { return }
        try printAndWrite(counterexample, scenario: scenario, checker: checker)
        throw ExitCode(1)
    }

    /// Refuses an `--out` that cannot be written before the search starts.
    private func checkOutputTarget() throws {
        guard let out else { return }
        do {
            try FileOutput.checkFile(out)
        } catch {
            throw ValidationError("--out: \(error)")
        }
    }

    private func printAndWrite(_ counterexample: Counterexample, scenario: Scenario, checker: ModelChecker) throws {
        let steps = CheckReportPrinter.printTimeline(counterexample, from: checker.initial)
        let target = out ?? "Reports/counterexamples/\(((scenario.path as NSString).lastPathComponent as NSString).deletingPathExtension)-\(counterexample.violation.invariant).yaml"
        let original = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let header = [
            "Counterexample found by: stagesim check \(path) --depth \(depth) --max-drops \(maxDrops)\(symmetry ? " --symmetry" : "")\(mutant.map { " --mutant \($0)" } ?? "")",
            "Violates \(counterexample.violation.invariant) [\(counterexample.violation.rules.joined(separator: ", "))]: \(counterexample.violation.message)",
            "\(counterexample.actions.count) actions (a shortest path when found breadth-first). Replay: stagesim run \(target)\(mutant.map { " --mutant \($0)" } ?? "")",
        ]
        let text = CounterexampleFile.text(original: original, counterexample: counterexample, steps: steps, header: header)
        do {
            try FileOutput.makeDirectories((target as NSString).deletingLastPathComponent)
            try FileOutput.writeWhole(text, to: target)
        } catch {
            throw ValidationError("the counterexample: \(error)")
        }
        print("counterexample written to \(target)")
        let page = (target as NSString).deletingPathExtension + ".html"
        let picture = diagram(counterexample, initial: checker.initial, title: target, notes: header)
        try PictureOptions.write(DiagramPage.html(picture), to: page, flag: "the counterexample's diagram")
        print("its sequence diagram: \(page)")
        print("replay: stagesim run \(target)\(mutant.map { " --mutant \($0)" } ?? "")")
    }

    /// The counterexample's sequence diagram: its actions replayed under every monitor, each
    /// event numbered by the action that produced it, the violation at the event it flagged.
    private func diagram(_ counterexample: Counterexample, initial: World, title: String, notes: [String]) -> SequenceDiagram {
        var loop = StepLoop(world: initial, monitors: MonitorSet(), recording: true)
        var actionNumbers: [Int] = []
        for (position, action) in counterexample.actions.enumerated() {
            actionNumbers += Array(repeating: position + 1, count: loop.step(action).events.count)
        }
        let replayed = loop.monitors.violations.first { $0.invariant == counterexample.violation.invariant }
        var violation = replayed ?? counterexample.violation
        if replayed == nil { violation.eventIndex = nil }
        return SequenceDiagram(title: title, trace: loop.trace, config: initial.config, violations: [violation], actionNumbers: actionNumbers, notes: notes)
    }
}
