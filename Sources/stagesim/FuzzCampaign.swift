import Dispatch
import Foundation
import Scenario
import Synchronization

/// Runs a range of seeds on worker threads, with a progress line on a terminal, and collects
/// the (shrunk) failures and any nondeterminism found.
struct FuzzCampaign {
    let first: UInt64
    let count: Int
    let jobs: Int
    let timeLimit: Double?
    let maxFailures: Int?
    let shrink: Bool
    let generator: ScenarioGenerator
    let checkDeterminism: Bool

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
        let progress = Mutex(ProgressLine(total: count))
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let seed = claim(cursor, start: start), !enoughFailures(state) {
                let failure = Fuzzer.check(seed: seed, generator: generator, shrink: shrink)
                let divergence = checkDeterminism ? DeterminismCheck.firstDivergence(generator.draft(seed: seed).draft) : nil
                let (done, failing) = state.withLock { results in
                    if let failure { results.failures.append(failure) }
                    if let divergence { results.divergences.append("seed \(seed): \(divergence)") }
                    results.seedsRun += 1
                    return (results.seedsRun, results.failures.count)
                }
                progress.withLock { $0.update(done: done, failing: failing, elapsed: Date().timeIntervalSince(start)) }
            }
        }
        progress.withLock { $0.finish() }
        var results = state.withLock { $0 }
        results.elapsedSeconds = Date().timeIntervalSince(start)
        return results
    }

    private func enoughFailures(_ state: borrowing Mutex<Results>) -> Bool {
        guard let maxFailures else { return false }
        return state.withLock { $0.failures.count >= maxFailures }
    }

    /// The next seed to run, or nil when the range or the time limit is used up.
    private func claim(_ cursor: borrowing Mutex<Int>, start: Date) -> UInt64? {
        cursor.withLock { next in
            let expired = timeLimit.map { Date().timeIntervalSince(start) > $0 } ?? false
            guard next < count, !expired else { return nil }
            next += 1
            return first + UInt64(next - 1)
        }
    }
}

/// A progress line that rewrites itself on a terminal and prints every tenth on a pipe.
struct ProgressLine {
    private let total: Int
    private let isTerminal = isatty(STDOUT_FILENO) == 1
    private var lastDecile = 0

    init(total: Int) { self.total = total }

    mutating func update(done: Int, failing: Int, elapsed: Double) {
        let rate = elapsed > 0 ? Int(Double(done) / elapsed * 60) : 0
        let line = "  \(done)/\(total) seeds, \(failing) failing, \(rate) seeds/min"
        if isTerminal {
            FileHandle.standardOutput.write(Data(("\r" + line).utf8))
        } else if done * 10 / max(total, 1) > lastDecile {
            lastDecile = done * 10 / max(total, 1)
            print(line)
        }
    }

    func finish() { if isTerminal { print("") } }
}
