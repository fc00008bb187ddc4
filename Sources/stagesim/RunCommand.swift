import ArgumentParser
import Foundation
import Scenario
import Simulation

/// `stagesim run <file|dir>`: replay scenario scripts under the seeded simulator.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files (a file, or every .yaml under a directory) and check their expectations.",
        discussion: "Exit status: 0 when every expectation and invariant holds, 1 when one fails, 2 for a bad scenario file."
    )

    @Argument(help: "A scenario file or a directory of them.")
    var path: String

    @Option(help: "Seed for every scenario (default: each scenario's own `seed`, else 1).")
    var seed: UInt64?

    @Option(help: "Write the trace as JSON lines: a file for one scenario, a directory for several.")
    var trace: String?

    @Flag(inversion: .prefixedNo, help: "Print each scenario's timeline (default: for a single file, and for failing scenarios).")
    var timeline: Bool?

    @Flag(help: "Include network deliveries and losses in the timeline.")
    var verbose = false

    @Option(help: "Switch on a deliberate bug (debug builds only; `stagesim invariants --mutants` lists them).") var mutant: String?

    @Flag(help: "Add a fault plan drawn from the seed (each fault kind on or off per seed) and judge by the invariants only.")
    var swarm = false

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ValidationError("no such file or directory: \(path)")
        }
        let files = isDirectory.boolValue ? ScenarioLoader.scenarioFiles(under: path) : [path]
        guard !files.isEmpty else { throw ValidationError("no .yaml scenario files under \(path)") }
        try MutantOption.activate(mutant)
        print(seed.map { "seed: \($0)" } ?? "seed: each scenario's own (listed per scenario)")
        let scenarios: [Scenario]
        do {
            scenarios = try files.map { try ScenarioLoader.load(path: $0) }
        } catch let error as ScenarioError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let printer = RunPrinter(verbose: verbose)
        var runs: [ScenarioRun] = []
        for scenario in scenarios {
            let run = ScenarioRunner.run(scenario, seed: seed, swarm: swarm)
            printer.printRun(run, timeline: timeline ?? (!isDirectory.boolValue || !run.passed))
            try writeTrace(run, directoryMode: isDirectory.boolValue)
            runs.append(run)
        }
        if isDirectory.boolValue { printer.printSummary(runs) }
        if !runs.allSatisfy(\.passed) { throw ExitCode(1) }
    }

    private func writeTrace(_ run: ScenarioRun, directoryMode: Bool) throws {
        guard let trace else { return }
        var target = trace
        if directoryMode {
            try FileManager.default.createDirectory(atPath: trace, withIntermediateDirectories: true)
            let base = ((run.scenario.path as NSString).lastPathComponent as NSString).deletingPathExtension
            target = (trace as NSString).appendingPathComponent(base + ".jsonl")
        }
        do {
            try Data(run.trace.jsonLines.utf8).write(to: URL(fileURLWithPath: target))
        } catch {
            throw ValidationError("cannot write trace to \(target): \(error.localizedDescription)")
        }
    }
}
