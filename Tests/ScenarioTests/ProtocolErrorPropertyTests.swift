import Drivers
@testable import Scenario
import StageWorld
import Testing

/// Issue 13, point 2: the line between a contradiction and a legitimate race. Apart from the
/// frames a generated scenario injects (the "injected frames" situation, SIG-8), whatever
/// reaches a client comes from the model: across hundreds of seeds (reconnects, retried joins,
/// kept publishers, lossy and cut links, token exchanges) no client may refuse a frame the
/// model sent, and every invariant still holds.
@Suite("Property run: the model never sends a frame a client refuses")
struct ProtocolErrorPropertyTests {
    static let chunks = 10
    static let seedsPerChunk = 30

    @Test("no frame the model sends is a protocol error, and no run breaks an invariant", arguments: 0..<chunks)
    func noProtocolErrors(chunk: Int) {
        for seed in (0..<Self.seedsPerChunk).map({ UInt64(5_001 + chunk * Self.seedsPerChunk + $0) }) {
            let draft = ScenarioGenerator().draft(seed: seed).draft
            let run = ScenarioRunner.run(draft.scenario(), seed: draft.seed)
            let refused = run.trace.events.filter { $0.category == "protocol-error" && $0.peer != TraceEvent.injectedSender }
            #expect(refused.isEmpty, "seed \(seed): \(refused.prefix(3).map { "\($0.observer) \($0.detail)" })")
            #expect(run.violations.isEmpty, "seed \(seed): \(run.violations.prefix(3))")
        }
    }
}
