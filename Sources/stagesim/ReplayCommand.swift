import ArgumentParser
import Drivers
import FailureStore
import Foundation
import Scenario
import Simulation

/// `stagesim replay <seed | file>` or `stagesim replay --id N`: rerun a generated seed, a
/// scenario file or a failure saved in the store bit for bit, with the violating step marked.
/// `--reschedule <file>` writes a regression file's schedule again from a timed run of its seed.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Rerun a fuzz seed or a saved scenario file and show its timeline with violations marked.",
        discussion: "Exit status: 0 when every invariant holds, 1 when one fails (as when it was found), 2 for a bad file."
    )

    @Argument(help: "A fuzz seed (a number) or a scenario file (e.g. a regression).") var target: String?
    static let failureID = NumericRange<Int64>(1...Int64.max)

    @Option(parsing: .unconditional, help: "A failure's id in the failure store instead.", transform: ReplayCommand.failureID.parse)
    var id: Int64?
    @Option(help: "The failure store for --id.") var db: String = FuzzCommand.defaultStore
    @Option(parsing: .unconditional, help: "Participants per generated scenario, as given to fuzz (\(OptionRanges.participants)).", transform: OptionRanges.participants.parse)
    var participants: Int?
    @Option(parsing: .unconditional, help: "Virtual seconds per generated scenario, as given to fuzz (\(OptionRanges.durationSeconds)).", transform: OptionRanges.durationSeconds.parse)
    var duration: UInt64?
    @Flag(help: "Include network deliveries and losses in the timeline.") var verbose = false
    @Option(help: "Write the trace as JSON lines (an existing file is replaced).") var trace: String?
    @OptionGroup var pictures: PictureOptions
    @Flag(help: "Run a regression file by its seed, ignoring its schedule, and write that run's actions as its new `schedule:` (after a model change).")
    var reschedule = false

    func validate() throws {
        guard (target == nil) != (id == nil) else { throw ValidationError("give a seed or a file, or --id, but not both") }
        guard !reschedule || target.map(FileManager.default.fileExists) == true else { throw ValidationError("--reschedule needs a regression file") }
        guard !reschedule || (pictures.isEmpty && trace == nil) else { throw ValidationError("--reschedule writes no trace or pictures; drop --trace, --html and --trace-events") }
    }

    func run() throws {
        if reschedule, let target { return try rescheduleFile(target) }
        try pictures.checkTargets()
        if let trace {
            do { try FileOutput.checkFile(trace) } catch { throw ValidationError("--trace: \(error)") }
        }
        let scenario: Scenario
        var recordedHash: String?
        do {
            if let id {
                let record = try storedFailure(id)
                recordedHash = record.traceHashHex
                print("failure \(id): seed \(record.seed), \(record.invariant): \(record.message)")
                scenario = try ScenarioLoader.parse(record.scenarioYAML, path: "failure-\(id).yaml")
            } else if let target, FileManager.default.fileExists(atPath: target) {
                scenario = try ScenarioLoader.load(path: target)
            } else if let target, let seed = UInt64(target) {
                let (draft, parameters) = ScenarioGenerator(participantCount: participants, durationSeconds: duration).draft(seed: seed)
                print("seed: \(seed)")
                parameters.forEach { print("  \($0)") }
                scenario = draft.scenario()
            } else {
                throw ValidationError("'\(target ?? "")' is neither a scenario file nor a seed (\(OptionRanges.seed))")
            }
        } catch let error as ScenarioError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let run = ScenarioRunner.run(scenario)
        RunPrinter(verbose: verbose).printRun(run, timeline: true)
        if let trace { try PictureOptions.write(run.trace.jsonLines, to: trace, flag: "--trace") }
        try pictures.write(run)
        if let recordedHash {
            let same = recordedHash == XXH3.hex(run.traceHash)
            print(same ? "  same trace hash as when it was found" : "  trace hash differs from the recorded \(recordedHash): the code has changed since")
        }
        if !run.passed { throw ExitCode(1) }
    }

    /// `--reschedule`: the file's timed run by its seed becomes its schedule (the rest of the
    /// file stays as it is).
    private func rescheduleFile(_ path: String) throws {
        let original: String
        var scenario: Scenario
        do {
            original = try String(contentsOfFile: path, encoding: .utf8)
            scenario = try ScenarioLoader.parse(original, path: path)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        scenario.schedule = nil
        let run = ScenarioRunner.run(scenario)
        guard !run.violations.contains(where: { $0.invariant == ScenarioRunner.eventBudgetInvariant }) else {
            throw ValidationError("\(path) runs away (its schedule would be its whole event budget); it is replayed by its seed")
        }
        let text = RegressionFile.text(original: original, world: scenario.makeWorld(seed: run.seed), actions: run.actions)
        do {
            try FileOutput.writeWhole(text, to: path)
        } catch {
            throw ValidationError("\(path): \(error)")
        }
        RunPrinter(verbose: verbose).printRun(run, timeline: false)
        print("wrote a schedule of \(run.actions.count) actions to \(path)")
    }

    private func storedFailure(_ id: Int64) throws -> FailureRecord {
        let record: FailureRecord?
        do {
            record = try FailureStore(path: db, createIfMissing: false).record(id: id)
        } catch {
            throw ValidationError("--db: \(error)")
        }
        guard let record else { throw ValidationError("no failure \(id) in \(db)") }
        return record
    }
}
