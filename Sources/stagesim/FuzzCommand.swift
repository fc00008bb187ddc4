import ArgumentParser
import Drivers
import Foundation
import Scenario
import StageCore

/// `stagesim fuzz`: generated scenarios on every core, judged by every invariant; each failure
/// is shrunk and, as soon as it is, written as a regression scenario and saved to the store.
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Run generated scenarios from consecutive seeds and shrink any that break an invariant.",
        discussion: """
            The regressions directory and the failure store are checked before the first seed. Each failure is written \
            (regression file, then store row) as soon as it is shrunk.
            Exit status: 0 when every seed holds every invariant, 1 when one fails, 64 for a usage error.
            """
    )

    static let seedCount = NumericRange<Int>(1...1_000_000_000)
    static let timeLimit = NumericRange.seconds(0.001...31_536_000)
    static let failureCount = NumericRange<Int>(1...1_000_000_000)
    static let busyTimeout = NumericRange.seconds(0...3_600)

    @Option(parsing: .unconditional, help: "How many seeds to run (\(FuzzCommand.seedCount)).", transform: FuzzCommand.seedCount.parse)
    var seeds: Int = 100
    @Option(parsing: .unconditional, help: "The first seed (\(OptionRanges.seed); seeds run from here upwards).", transform: OptionRanges.seed.parse)
    var from: UInt64 = 1
    @Flag(help: "Start from a fresh random seed instead of --from (it is printed, so the run can be repeated; not with --shard).") var fresh = false
    @Option(parsing: .unconditional, help: "Run only shard K of N (K/N, K from 1 to N): the seeds at offsets K-1, K-1+N, K-1+2N, ... of the range. The N shards split it exactly.", transform: FuzzShard.parse)
    var shard: FuzzShard = .whole
    @Option(parsing: .unconditional, help: "Worker threads (\(OptionRanges.jobs); default: every core).", transform: OptionRanges.jobs.parse)
    var jobs: Int = min(ProcessInfo.processInfo.activeProcessorCount, 256)
    @Option(parsing: .unconditional, help: "Stop starting new seeds after this many wall-clock seconds (\(FuzzCommand.timeLimit)).", transform: FuzzCommand.timeLimit.parse)
    var time: Double?
    @Option(parsing: .unconditional, help: "Participants per generated scenario (\(OptionRanges.participants); default: drawn, 2...8, or rarely a full stage of 13-14).", transform: OptionRanges.participants.parse)
    var participants: Int?
    @Option(parsing: .unconditional, help: "Virtual seconds per generated scenario (\(OptionRanges.durationSeconds); default: drawn, 20...60).", transform: OptionRanges.durationSeconds.parse)
    var duration: UInt64?
    @Option(help: "Where shrunk failing cases are written as scenario files.") var regressions: String = "Scenarios/regressions"
    @Option(help: "The SQLite failure store every failing case is saved to.") var db: String = FuzzCommand.defaultStore
    @Option(parsing: .unconditional, help: "Seconds (\(FuzzCommand.busyTimeout)) a save waits for another process's write lock on the store before the failure is kept in its regression file only.", transform: FuzzCommand.busyTimeout.parse)
    var busyTimeout: Double = 30

    /// The store `fuzz` saves to and `replay --id` and `swift test` read by default.
    static let defaultStore = "Scenarios/regressions/failures.sqlite"
    @Flag(help: "Run each seed twice and compare a hash per step, naming the first step that differs.") var checkDeterminism = false
    @Option(parsing: .unconditional, help: "Stop starting new seeds once this many have failed (\(FuzzCommand.failureCount)).", transform: FuzzCommand.failureCount.parse)
    var maxFailures: Int?
    @Flag(help: "Report failing seeds without shrinking them or writing regression files (for kill-rate surveys).") var noShrink = false
    @Option(help: "Switch on a deliberate bug (debug builds only); see `stagesim invariants --mutants`.") var mutant: String?

    func validate() throws {
        guard !(fresh && shard.count > 1) else {
            throw ValidationError("--fresh draws its own first seed in each process, so shards would not split one range; "
                                  + "give every shard the same --from instead")
        }
        guard fresh || UInt64(seeds - 1) <= UInt64.max - from else {
            throw ValidationError("--from \(from) with --seeds \(seeds) runs past the last seed, \(UInt64.max); "
                                  + "--from may be at most \(UInt64.max - UInt64(seeds - 1)) for \(seeds) seeds")
        }
    }

    func run() throws {
        try MutantOption.withMutant(mutant, runCampaign)
    }

    private func runCampaign() throws {
        let first = fresh ? UInt64.random(in: 1...UInt64(UInt32.max)) : from
        let slice = shard.slice(first: first, seeds: seeds)
        let sharding = shard.count > 1 ? "  shard: \(shard), \(Self.describe(slice, of: seeds))" : ""
        print("seeds: \(range(first: first))\(sharding)  jobs: \(jobs)\(checkDeterminism ? "  (checking determinism)" : "")")
        let generator = ScenarioGenerator(participantCount: participants, durationSeconds: duration)
        let recorder = noShrink ? nil : try FailureRecorder(
            regressions: regressions, storePath: db, busyTimeoutMilliseconds: Int32(busyTimeout * 1_000), runLabel: runLabel(first: first),
            generator: generator
        )
        flushOutput()
        let results = FuzzCampaign(
            seeds: slice, jobs: jobs, timeLimitSeconds: time, maxFailures: maxFailures, shrink: !noShrink,
            generator: generator, checkDeterminism: checkDeterminism, record: recorder?.record
        ).run()
        for divergence in results.divergences { print("NONDETERMINISTIC \(divergence)") }
        if noShrink { printUnshrunk(results.failures) }
        let rate = results.elapsedSeconds > 0 ? Double(results.seedsRun) / results.elapsedSeconds * 60 : 0
        print("ran \(results.seedsRun) seeds in \(String(format: "%.1f", results.elapsedSeconds)) s (\(Int(rate)) seeds/min): "
              + "\(results.failures.count) failing, \(results.divergences.count) nondeterministic")
        recorder?.summary().forEach { print($0) }
        if !results.failures.isEmpty || !results.divergences.isEmpty { throw ExitCode(1) }
    }

    /// The run label each stored failure carries: "fuzz seeds 1...100", and " shard 2/4" when sharded.
    func runLabel(first: UInt64) -> String {
        "fuzz seeds \(range(first: first))" + (shard.count > 1 ? " shard \(shard)" : "")
    }

    /// The whole range, as "1...100" (every shard's).
    private func range(first: UInt64) -> String { "\(first)...\(first + UInt64(seeds - 1))" }

    /// "25 of the 100 seeds (2, 6, 10, ...)": a shard's slice of the range, for the header.
    static func describe(_ slice: SeedSlice, of seeds: Int) -> String {
        let shown = (0..<min(slice.count, 3)).map { String(slice.seed(at: $0)) } + (slice.count > 3 ? ["..."] : [])
        return "\(slice.count) of the \(seeds) seeds" + (shown.isEmpty ? "" : " (\(shown.joined(separator: ", ")))")
    }

    /// `--no-shrink`: the failing seeds in order, for kill-rate surveys.
    private func printUnshrunk(_ failures: [FuzzFailure]) {
        let sorted = failures.sorted { $0.seed < $1.seed }
        sorted.forEach { print("FAIL seed \($0.seed): \($0.violation)") }
        print("failing seeds: \(sorted.map { String($0.seed) }.joined(separator: " "))")
    }
}
