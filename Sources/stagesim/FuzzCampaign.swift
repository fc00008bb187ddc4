import Dispatch
import Drivers
import Foundation
import Scenario
import StageCore
import Synchronization

/// Runs a slice of seeds on worker threads, with a progress line on a terminal. Each failure is
/// handed to `record` as soon as it is shrunk (on the worker that found it), and the lines
/// `record` returns are printed at once; without `record` the failures are only collected.
struct FuzzCampaign {
    let seeds: SeedSlice
    let jobs: Int
    let timeLimitSeconds: Double?
    let maxFailures: Int?
    let shrink: Bool
    let generator: ScenarioGenerator
    let checkDeterminism: Bool
    /// Saves one shrunk failure and returns what to print about it.
    let record: (@Sendable (FuzzFailure) -> [String])?

    struct Results {
        var failures: [FuzzFailure] = []
        var divergences: [String] = []
        var seedsRun = 0
        var elapsedSeconds = 0.0
    }

    func run() -> Results {
        let start = Date()
        let state = Mutex(Results())
        let cursor = Mutex(0)
        let console = Mutex(FuzzConsole(total: seeds.count))
        let mutant = Mutants.current
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            Mutants.withMutant(mutant) { work(state: state, cursor: cursor, console: console, start: start) }
        }
        console.withLock { $0.finish() }
        var results = state.withLock { $0 }
        results.elapsedSeconds = Date().timeIntervalSince(start)
        return results
    }

    /// One worker: claims seeds until none are left, the time is up or enough have failed.
    private func work(state: borrowing Mutex<Results>, cursor: borrowing Mutex<Int>, console: borrowing Mutex<FuzzConsole>, start: Date) {
        while let seed = claim(cursor, start: start), !enoughFailures(state) {
            let failure = Fuzzer.check(seed: seed, generator: generator, shrink: shrink) { violation in
                guard record != nil else { return }
                console.withLock { $0.printAbove(["seed \(seed) breaks \(violation.invariant); shrinking"]) }
            }
            let lines = failure.flatMap { record?($0) } ?? []
            let divergence = checkDeterminism ? DeterminismCheck.firstDivergence(generator.draft(seed: seed).draft) : nil
            let (done, failing) = state.withLock { results in
                if let failure { results.failures.append(failure) }
                if let divergence { results.divergences.append("seed \(seed): \(divergence)") }
                results.seedsRun += 1
                return (results.seedsRun, results.failures.count)
            }
            console.withLock { console in
                console.printAbove(lines)
                console.update(done: done, failing: failing, elapsed: Date().timeIntervalSince(start))
            }
        }
    }

    private func enoughFailures(_ state: borrowing Mutex<Results>) -> Bool {
        guard let maxFailures else { return false }
        return state.withLock { $0.failures.count >= maxFailures }
    }

    /// The next seed to run, or nil when the slice or the time limit is used up.
    private func claim(_ cursor: borrowing Mutex<Int>, start: Date) -> UInt64? {
        cursor.withLock { next in
            let expired = timeLimitSeconds.map { Date().timeIntervalSince(start) > $0 } ?? false
            guard next < seeds.count, !expired else { return nil }
            next += 1
            return seeds.seed(at: next - 1)
        }
    }
}

/// The campaign's console: a progress line that rewrites itself on a terminal and prints every
/// tenth on a pipe, and the lines about failures, printed above it and flushed at once.
struct FuzzConsole {
    private let total: Int
    private var line = TerminalStatusLine()
    private var lastDecile = 0

    init(total: Int) { self.total = total }

    mutating func printAbove(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        line.clear()
        lines.forEach { print($0) }
        flushOutput()
    }

    mutating func update(done: Int, failing: Int, elapsed: Double) {
        let rate = elapsed > 0 ? Int(Double(done) / elapsed * 60) : 0
        let text = "  \(done)/\(total) seeds, \(failing) failing, \(rate) seeds/min"
        if line.isTerminal {
            line.show(text)
        } else if done * 10 / max(total, 1) > lastDecile {
            lastDecile = done * 10 / max(total, 1)
            printAbove([text])
        }
    }

    mutating func finish() { line.keep() }
}
