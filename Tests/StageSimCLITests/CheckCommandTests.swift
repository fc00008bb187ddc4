import Foundation
import Testing

/// `stagesim check` and `stagesim fuzz --mutant`, as separate processes: smoke tests of the
/// command line. The searches and the mutants themselves are tested in process (CheckingTests).
@Suite("stagesim check and fuzz --mutant, as separate processes")
struct CheckCommandTests {
    static func distinctStates(_ output: String) -> Int? {
        output.split(separator: "\n").first { $0.hasPrefix("distinct states: ") }.flatMap { Int($0.dropFirst("distinct states: ".count)) }
    }

    @Test("two processes count the same states")
    func countsAgreeAcrossProcesses() throws {
        let runs = try [[], ["--jobs", "1"]].map { try stagesim(["check", "Scenarios/check/immutable-exchange.yaml"] + $0) }
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.output))")
        let counts = runs.map { Self.distinctStates($0.output) }
        #expect(counts.first != nil && Set(counts).count == 1, "\(counts)")
        #expect(runs[0].output.contains("result: no violation (the whole state space within the drop budget)"))
        #expect(runs[0].output.contains("fingerprint collision probability: "))
        #expect(runs[0].output.contains("whole nodes held at once, 8 bytes per waiting state besides them"), "\(runs[0].output)")
        #expect(runs[0].output.contains("peak resident memory: "), "\(runs[0].output)")
    }

    @Test("check --mutant writes a counterexample that run --mutant replays")
    func counterexampleReplays() throws {
        let file = try temporaryFile("counterexample.yaml", contents: "")
        let check = try stagesim(["check", "Scenarios/check/strategy-changes.yaml", "--mutant", "video-under-audio-only", "--max-drops", "0", "--out", file])
        #expect(check.status == 1, "\(check.output)")
        #expect(check.output.contains("VIOLATION added-streams-match-answer "), "\(check.output)")
        let replay = try stagesim(["run", file, "--mutant", "video-under-audio-only"])
        #expect(replay.status == 1)
        #expect(replay.output.contains("VIOLATION added-streams-match-answer "), "\(replay.output)")
    }

    @Test("fuzz --mutant on two workers writes a regression whose schedule run --mutant replays")
    func fuzzRegressionReplays() throws {
        let directory = (try temporaryFile("marker", contents: "") as NSString).deletingLastPathComponent
        let fuzz = try stagesim([
            "fuzz", "--mutant", "drop-answered-connection", "--seeds", "4", "--jobs", "2",
            "--regressions", directory, "--db", directory + "/failures.sqlite",
        ])
        #expect(fuzz.status == 1, "\(fuzz.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") }.sorted()
        let file = try #require(files.first.map { directory + "/" + $0 }, "\(fuzz.output)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\nscheduleEnd: timed\nschedule:\n  - fire "))
        let replay = try stagesim(["run", file, "--mutant", "drop-answered-connection"])
        #expect(replay.status == 1)
        #expect(replay.output.contains("VIOLATION "), "\(replay.output)")
    }
}
