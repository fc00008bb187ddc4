import Foundation
import Testing

/// `stagesim check`, as separate processes: the model checker's counts do not depend on the
/// process, the number of jobs or the search order; symmetry stands for exactly the states it
/// merges; and every mutant reachable in a small check scenario is found with a counterexample
/// that `stagesim run` replays to the same violation.
@Suite("stagesim check, as separate processes")
struct CheckCommandTests {
    static func distinctStates(_ output: String) -> Int? {
        output.split(separator: "\n").first { $0.hasPrefix("distinct states: ") }.flatMap { Int($0.dropFirst("distinct states: ".count)) }
    }

    @Test("the same state count in two processes, with one job or two, breadth- or depth-first, fingerprints or exact states")
    func countsAgree() throws {
        let scenario = "Scenarios/check/immutable-exchange.yaml"
        let runs = try [[], [], ["--jobs", "1"], ["--dfs"], ["--exact"]].map { try stagesim(["check", scenario] + $0) }
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.output))")
        let counts = runs.map { Self.distinctStates($0.output) }
        #expect(counts.first != nil && Set(counts).count == 1, "\(counts)")
        #expect(runs[0].output.contains("result: no violation (the whole state space within the drop budget)"))
        #expect(runs[0].output.contains("fingerprint collision probability: "))
    }

    @Test("symmetry: the canonical states stand for exactly the states of the search without it")
    func symmetryReduction() throws {
        let arguments = ["check", "Scenarios/check/two-peers-lossy.yaml", "--max-drops", "0", "--depth", "10"]
        let plain = try stagesim(arguments)
        let reduced = try stagesim(arguments + ["--symmetry"])
        let all = try #require(Self.distinctStates(plain.output))
        let canonical = try #require(Self.distinctStates(reduced.output))
        #expect(canonical < all)
        #expect(reduced.output.contains("symmetry: \(all) states represented by \(canonical), reduction factor"), "\(reduced.output)")
    }

    /// Each mutant, the check scenario that reaches it and the invariant that catches it.
    static let mutants: [(mutant: String, scenario: String, invariant: String)] = [
        ("keep-streams-after-leave", "two-peers-lossy", "streams-added-once-removed-once"),
        ("metadata-event-to-old-sdks", "exchange-capabilities", "metadata-visibility"),
        ("skip-strategy-on-capability-gain", "exchange-capabilities", "capability-change-acts-at-once"),
        ("keep-publishing-after-capability-loss", "exchange-capabilities", "capability-change-acts-at-once"),
        ("subscribe-before-publish", "strategy-changes", "join-before-events-leave-after"),
        ("accept-changed-immutable-field", "immutable-exchange", "exchange-keeps-immutable-fields"),
        ("events-on-unchanged-refresh", "strategy-changes", "unchanged-refresh-is-silent"),
        ("ignore-new-instance-mute", "new-instance-mute", "views-converge-when-quiet"),
        ("no-leave-on-remote-leave", "strategy-changes", "join-before-events-leave-after"),
        ("join-again-on-stream-change", "strategy-changes", "join-before-events-leave-after"),
        ("video-under-audio-only", "strategy-changes", "added-streams-match-answer"),
    ]

    @Test("the checker finds the mutant with a shortest counterexample, and `stagesim run` replays it", arguments: mutants.indices)
    func mutantFound(index: Int) throws {
        let (mutant, scenario, invariant) = Self.mutants[index]
        let path = "Scenarios/check/\(scenario).yaml"
        let file = try temporaryFile("counterexample.yaml", contents: "")
        let check = try stagesim(["check", path, "--mutant", mutant, "--max-drops", "0", "--out", file])
        #expect(check.status == 1, "\(mutant) not found:\n\(check.output)")
        #expect(check.output.contains("VIOLATION \(invariant) "), "\(check.output)")
        let length = try #require(check.output.split(separator: "\n").first { $0.hasPrefix("counterexample, ") }?.split(separator: " ").dropFirst().first.flatMap { Int($0) })
        let shorter = try stagesim(["check", path, "--mutant", mutant, "--max-drops", "0", "--depth", "\(length - 1)"])
        #expect(shorter.status == 0, "a counterexample shorter than \(length) actions exists:\n\(shorter.output)")
        let replay = try stagesim(["run", file, "--mutant", mutant])
        #expect(replay.status == 1)
        #expect(replay.output.contains("VIOLATION \(invariant) "), "\(replay.output)")
        #expect(!(try stagesim(["run", file]).output.contains("VIOLATION \(invariant) ")), "the counterexample needs the mutant")
    }
}
