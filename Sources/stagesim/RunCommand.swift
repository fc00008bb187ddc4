import ArgumentParser
import Drivers
import Foundation
import Scenario
import Simulation
import StageWorld

/// `stagesim run <file|dir>`: replay scenario scripts under the seeded simulator.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files (a file, or every .yaml under a directory) and check their expectations.",
        discussion: """
            A directory run reports every bad file and unreadable directory and runs the rest.
            Exit status: 0 when every expectation and invariant holds, 1 when one fails, 2 when a scenario file is bad \
            or a directory cannot be read (even if others ran), 64 for a usage error.
            """
    )

    @Argument(help: "A scenario file or a directory of them.")
    var path: String

    @Option(parsing: .unconditional, help: "Seed for every scenario (\(OptionRanges.seed); default: each scenario's own `seed`, else 1).", transform: OptionRanges.seed.parse)
    var seed: UInt64?

    @Option(help: "Write the trace as JSON lines: a file for one scenario (an existing file is replaced), a directory for several.")
    var trace: String?

    @Flag(inversion: .prefixedNo, help: "Print each scenario's timeline (default: for a single file, and for failing scenarios).")
    var timeline: Bool?

    @Flag(help: "Include network deliveries and losses in the timeline.")
    var verbose = false

    @Option(help: "Switch on a deliberate bug (debug builds only; `stagesim invariants --mutants` lists them).") var mutant: String?

    @OptionGroup var pictures: PictureOptions

    @Flag(help: "Add a fault plan drawn from the seed (each fault kind on or off per seed) and judge by the invariants only.")
    var swarm = false

    func run() throws {
        try MutantOption.withMutant(mutant, runScenarios)
    }

    private func runScenarios() throws {
        let listing = try scenarioListing()
        let isDirectory = listing.isDirectory
        try checkTraceTarget(directoryMode: isDirectory)
        if isDirectory && !pictures.isEmpty { throw ValidationError("--html and --trace-events need a single scenario file, not a directory") }
        try pictures.checkTargets()
        print(seed.map { "seed: \($0)" } ?? "seed: each scenario's own (listed per scenario)")
        flushOutput()
        var problems = listing.unreadable.map { "\($0.path): cannot be read: \($0.reason)" }
        problems.forEach(reportError)
        let printer = RunPrinter(verbose: verbose)
        var runs: [ScenarioRun] = []
        for file in listing.files {
            guard let scenario = load(file, problems: &problems) else { continue }
            runs.append(try run(scenario, printer: printer, directoryMode: isDirectory))
        }
        if isDirectory { printer.printSummary(runs, problems: problems) }
        if !problems.isEmpty { throw ExitCode(2) }
        if !runs.allSatisfy(\.passed) { throw ExitCode(1) }
    }

    /// Runs one scenario under its progress line, prints it, writes its trace and pushes the
    /// output out (so a pipe sees each scenario as it ends). The trace streams to its file and
    /// keeps no events unless a timeline or a picture is wanted; a failing run whose timeline was not
    /// wanted before it ended is run again, keeping them (runs are deterministic).
    private func run(_ scenario: Scenario, printer: RunPrinter, directoryMode: Bool) throws -> ScenarioRun {
        var progress = RunProgressLine()
        let traceFile = try traceFile(for: scenario, directoryMode: directoryMode)
        let keepsEvents = (timeline ?? !directoryMode) || !pictures.isEmpty
        var run = ScenarioRunner.run(scenario, seed: seed, swarm: swarm, trace: Trace(keepsEvents: keepsEvents, sink: traceFile)) {
            progress.update(virtualTime: $0, events: $1)
        }
        progress.finish()
        do {
            try traceFile?.finish()
        } catch {
            throw ValidationError("--trace: \(error)")
        }
        let showsTimeline = timeline ?? (!directoryMode || !run.passed)
        if showsTimeline && !run.trace.keepsEvents {
            run = ScenarioRunner.run(scenario, seed: seed, swarm: swarm)
        }
        printer.printRun(run, timeline: showsTimeline)
        try pictures.write(run)
        flushOutput()
        return run
    }

    /// The scenario files to run, the directories and links that could not be read, and
    /// whether `path` is a directory.
    private func scenarioListing() throws -> (files: [String], unreadable: [ScenarioListing.Unreadable], isDirectory: Bool) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ValidationError("no such file or directory: \(path)")
        }
        guard isDirectory.boolValue else { return ([path], [], false) }
        let listing = ScenarioListing(under: path)
        guard !listing.files.isEmpty || !listing.unreadable.isEmpty else { throw ValidationError("no .yaml scenario files under \(path)") }
        return (listing.files, listing.unreadable, true)
    }

    /// The scenario in `file`, or nil after reporting why it cannot be run.
    private func load(_ file: String, problems: inout [String]) -> Scenario? {
        do {
            return try ScenarioLoader.load(path: file)
        } catch {
            problems.append("\(error)")
            reportError("\(error)")
            return nil
        }
    }

    private func reportError(_ message: String) {
        flushOutput()
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    }

    /// Refuses a `--trace` that cannot be written before any scenario runs: for one scenario a
    /// writable file, for a directory of them a writable directory.
    private func checkTraceTarget(directoryMode: Bool) throws {
        guard let trace else { return }
        do {
            if directoryMode {
                try FileOutput.prepareDirectory(trace)
            } else {
                try FileOutput.checkFile(trace)
            }
        } catch {
            throw ValidationError("--trace: \(error)")
        }
    }

    /// The file `--trace` streams this scenario's trace to, if any.
    private func traceFile(for scenario: Scenario, directoryMode: Bool) throws -> StreamedTraceFile? {
        guard let trace else { return nil }
        let base = ((scenario.path as NSString).lastPathComponent as NSString).deletingPathExtension
        let target = directoryMode ? (trace as NSString).appendingPathComponent(base + ".jsonl") : trace
        do {
            return try StreamedTraceFile(path: target)
        } catch {
            throw ValidationError("--trace: \(error)")
        }
    }
}
