import ArgumentParser
import Dispatch
import Foundation
import HostileInputs

/// `stagesim selftest`: feeds seeded hostile inputs to every parser StageSim exposes (scenario
/// loader, signaling frame decoder, token codec) and counts what each did (issue 13).
struct SelftestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selftest",
        abstract: "Feed seeded hostile inputs to the scenario loader, the frame decoder and the token codec.",
        discussion: """
            Each input is accepted or refused with a clear error; a finding is a broken promise \
            (a crash would stop the run). Input n of a seed replays alone with --from n --inputs 1.
            Exit status: 0 when nothing was found, 1 on a finding.
            """
    )

    static let inputCount = NumericRange<UInt64>(1...1_000_000_000)

    @Option(parsing: .unconditional, help: "Inputs per parser (\(SelftestCommand.inputCount)).", transform: SelftestCommand.inputCount.parse)
    var inputs: UInt64 = 100_000
    @Option(parsing: .unconditional, help: "The campaign's seed (\(OptionRanges.seed)).", transform: OptionRanges.seed.parse)
    var seed: UInt64 = 2026
    @Option(parsing: .unconditional, help: "The first input number (\(OptionRanges.seed)).", transform: OptionRanges.seed.parse)
    var from: UInt64 = 0
    @Option(help: "Only this parser (scenario, frame or token); repeat for several. Default: all.") var kind: [HostileInputKind] = []
    @Option(parsing: .unconditional, help: "Worker threads (\(OptionRanges.jobs); default: every core).", transform: OptionRanges.jobs.parse)
    var jobs: Int = min(ProcessInfo.processInfo.activeProcessorCount, 256)

    func validate() throws {
        guard from <= UInt64.max - (inputs - 1) else { throw ValidationError("--from \(from) plus --inputs \(inputs) passes the largest input number") }
    }

    func run() throws {
        let kinds = kind.isEmpty ? HostileInputKind.allCases : kind
        print("kind      inputs      accepted    rejected    findings  seconds  inputs/s")
        var found = 0
        for kind in kinds {
            let started = Date()
            let tally = try SelftestRun(kind: kind, seed: seed, first: from, count: inputs, jobs: jobs).run()
            let seconds = Date().timeIntervalSince(started)
            print(SelftestRun.line(tally, seconds: seconds))
            for finding in tally.findings.prefix(10) {
                print("  \(finding)\n    replay: stagesim selftest --kind \(kind.rawValue) --seed \(seed) --from \(finding.number) --inputs 1")
            }
            found += tally.findings.count
        }
        if found > 0 { throw ExitCode(1) }
    }
}

extension HostileInputKind: ExpressibleByArgument {}

/// One parser's share of a selftest, split into chunks over worker threads; progress goes to
/// standard error as chunks finish.
private struct SelftestRun {
    let kind: HostileInputKind
    let seed: UInt64
    let first: UInt64
    let count: UInt64
    let jobs: Int

    func run() throws -> InputTally {
        let campaign = try InputCampaign(kind: kind, seed: seed)
        let chunkSize = max(1, min(10_000, count / UInt64(jobs)))
        let chunks = Int((count + chunkSize - 1) / chunkSize)
        let results = ChunkResults(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let offset = UInt64(chunk) * chunkSize
            let tally = campaign.run(first: first + offset, count: min(chunkSize, count - offset), progressEvery: .max)
            results.store(tally, at: chunk, total: count, kind: kind)
        }
        return results.merged(kind: kind)
    }

    static func line(_ tally: InputTally, seconds: Double) -> String {
        let rate = seconds > 0 ? Int(Double(tally.inputs) / seconds) : 0
        return [tally.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0), pad(tally.inputs, 11), pad(tally.accepted, 11),
                pad(tally.rejected, 11), pad(tally.findings.count, 9), String(format: "%8.1f", seconds), pad(rate, 9)].joined(separator: "  ")
    }

    private static func pad(_ number: Int, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

/// The tallies of finished chunks, filled from worker threads; reports each tenth done.
private final class ChunkResults: @unchecked Sendable {
    private let lock = NSLock()
    private var tallies: [InputTally?]
    private var inputsDone = 0
    private var tenthsReported = 0

    init(count: Int) { tallies = Array(repeating: nil, count: count) }

    func store(_ tally: InputTally, at index: Int, total: UInt64, kind: HostileInputKind) {
        lock.lock()
        defer { lock.unlock() }
        tallies[index] = tally
        inputsDone += tally.inputs
        let tenths = Int(UInt64(inputsDone) * 10 / max(total, 1))
        guard tenths > tenthsReported else { return }
        tenthsReported = tenths
        FileHandle.standardError.write(Data("\(kind.rawValue): \(inputsDone)/\(total) inputs\n".utf8))
    }

    /// The chunks' tallies summed, findings in input order.
    func merged(kind: HostileInputKind) -> InputTally {
        var total = InputTally(kind: kind)
        for tally in tallies.compactMap({ $0 }) {
            total.inputs += tally.inputs
            total.accepted += tally.accepted
            total.rejected += tally.rejected
            total.findings += tally.findings
        }
        return total
    }
}
