import ArgumentParser
import FailureStore
import Foundation
import Scenario
import Simulation
import StageCore

/// `stagesim fuzz`: generated scenarios on every core, judged by every invariant; failures are
/// shrunk, written as regression scenarios and (with `--db`) saved to the failure store.
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Run generated scenarios from consecutive seeds and shrink any that break an invariant.",
        discussion: "Exit status: 0 when every seed holds every invariant, 1 when one fails, 64 for a usage error."
    )

    @Option(help: "How many seeds to run.") var seeds: Int = 100
    @Option(help: "The first seed (seeds run from here upwards).") var from: UInt64 = 1
    @Flag(help: "Start from a fresh random seed instead of --from (it is printed, so the run can be repeated).") var fresh = false
    @Option(help: "Worker threads (default: every core).") var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Stop starting new seeds after this many wall-clock seconds.") var time: Double?
    @Option(help: "Participants per generated scenario (default: drawn, 2...8, or rarely a full stage of 13-14).") var participants: Int?
    @Option(help: "Virtual seconds per generated scenario (default: drawn, 20...60).") var duration: UInt64?
    @Option(help: "Where shrunk failing cases are written as scenario files.") var regressions: String = "Scenarios/regressions"
    @Option(help: "The SQLite failure store every failing case is saved to.") var db: String = FuzzCommand.defaultStore

    /// The store `fuzz` saves to and `replay --id` and `swift test` read by default.
    static let defaultStore = "Scenarios/regressions/failures.sqlite"
    @Flag(help: "Run each seed twice and compare a hash per step, naming the first step that differs.") var checkDeterminism = false
    @Option(help: "Stop starting new seeds once this many have failed.") var maxFailures: Int?
    @Flag(help: "Report failing seeds without shrinking them or writing regression files (for kill-rate surveys).") var noShrink = false
    @Option(help: "Switch on a deliberate bug (debug builds only); see `stagesim invariants --mutants`.") var mutant: String?

    func validate() throws {
        guard seeds > 0 else { throw ValidationError("--seeds must be at least 1") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 256") }
        if let participants, !(1...12).contains(participants) { throw ValidationError("--participants must be between 1 and 12") }
        if let duration, !(5...3_600).contains(duration) { throw ValidationError("--duration must be between 5 and 3600 seconds") }
    }

    func run() throws {
        try MutantOption.activate(mutant)
        let first = fresh ? UInt64.random(in: 1...UInt64(UInt32.max)) : from
        print("seeds: \(first)...\(first + UInt64(seeds) - 1)  jobs: \(jobs)\(checkDeterminism ? "  (checking determinism)" : "")")
        let generator = ScenarioGenerator(participantCount: participants, durationSeconds: duration)
        let results = FuzzCampaign(
            first: first, count: seeds, jobs: jobs, timeLimit: time, maxFailures: maxFailures, shrink: !noShrink,
            generator: generator, checkDeterminism: checkDeterminism
        ).run()
        for divergence in results.divergences { print("NONDETERMINISTIC \(divergence)") }
        let label = "fuzz seeds \(first)...\(first + UInt64(seeds) - 1)"
        if noShrink {
            let failures = results.failures.sorted { $0.seed < $1.seed }
            failures.forEach { print("FAIL seed \($0.seed): \($0.violation)") }
            print("failing seeds: \(failures.map { String($0.seed) }.joined(separator: " "))")
        } else {
            let store = results.failures.isEmpty ? nil : try openStore()
            for failure in results.failures.sorted(by: { $0.seed < $1.seed }) {
                try report(failure, parameters: generator.draft(seed: failure.seed).parameters, store: store, run: label)
            }
        }
        let rate = results.elapsedSeconds > 0 ? Double(results.seedsRun) / results.elapsedSeconds * 60 : 0
        print("ran \(results.seedsRun) seeds in \(String(format: "%.1f", results.elapsedSeconds)) s (\(Int(rate)) seeds/min): "
              + "\(results.failures.count) failing, \(results.divergences.count) nondeterministic")
        if !results.failures.isEmpty || !results.divergences.isEmpty { throw ExitCode(1) }
    }

    private func openStore() throws -> FailureStore {
        do {
            try FileManager.default.createDirectory(atPath: (db as NSString).deletingLastPathComponent.isEmpty ? "." : (db as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            return try FailureStore(path: db)
        } catch {
            throw ValidationError("cannot open the failure store: \(error)")
        }
    }

    private func report(_ failure: FuzzFailure, parameters: [String], store: FailureStore?, run label: String) throws {
        let path = (regressions as NSString).appendingPathComponent("seed-\(failure.seed)-\(failure.violation.invariant).yaml")
        var draft = failure.shrunk
        draft.covers = failure.violation.rules.isEmpty ? ["NET-1"] : failure.violation.rules
        draft.comments = [
            "Found by stagesim fuzz, seed \(failure.seed); shrunk from \(failure.original.steps.count) steps and "
                + "\(failure.original.participants.count) participants to \(draft.steps.count) and \(draft.participants.count).",
            "Violates \(failure.violation.invariant): \(failure.violation.message)",
            "Replay: stagesim run \(path)   (or: stagesim replay \(failure.seed))",
        ]
        do {
            try FileManager.default.createDirectory(atPath: regressions, withIntermediateDirectories: true)
            try Data(draft.yaml.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ValidationError("cannot write \(path): \(error.localizedDescription)")
        }
        print("FAIL seed \(failure.seed): \(failure.violation)")
        parameters.forEach { print("  \($0)") }
        print("  shrunk to \(draft.participants.count) participants, \(draft.steps.count) steps; trace hash \(XXH3.hex(failure.traceHash))")
        print("  wrote \(path)\n  replay: stagesim run \(path)")
        guard let store else { return }
        let record = FailureRecord(
            seed: failure.seed, invariant: failure.violation.invariant, rules: draft.covers, message: failure.violation.message,
            traceHashHex: XXH3.hex(failure.traceHash), scenarioYAML: draft.yaml, originalStepCount: failure.original.steps.count,
            shrunkStepCount: draft.steps.count, createdAtRun: label, regressionPath: path
        )
        do {
            let id = try store.save(record)
            print("  saved as failure \(id) in \(db)  (stagesim replay --id \(id))")
        } catch {
            throw ValidationError("cannot save to the failure store: \(error)")
        }
    }
}
