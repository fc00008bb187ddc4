import Checking
import Scenario
import Simulation
import StageWorld

/// NET-1 self-check: runs a scenario twice in this process and compares a hash of each step's
/// trace events; names the first step whose events differ.
public enum DeterminismCheck {
    public static func firstDivergence(_ draft: ScenarioDraft) -> String? {
        let scenario = draft.scenario()
        let first = stepHashes(scenario, seed: draft.seed)
        let second = stepHashes(scenario, seed: draft.seed)
        let common = min(first.count, second.count)
        guard let step = (0..<common).first(where: { first[$0].hash != second[$0].hash })
            ?? (first.count == second.count ? nil : common) else { return nil }
        let left = step < first.count ? first[step].line : "(ended)"
        let right = step < second.count ? second[step].line : "(ended)"
        return "step \(step) differs: \(left) vs \(right)"
    }

    static func stepHashes(_ scenario: Scenario, seed: UInt64) -> [(hash: UInt64, line: String)] {
        var simulator = Simulator(world: scenario.makeWorld(seed: seed), seed: seed, eventBudget: scenario.runEventBudget)
        var hashes: [(UInt64, String)] = []
        while let step = simulator.step(until: .zero + scenario.duration) {
            let lines = step.outcome.events.map(\.jsonLine).joined()
            hashes.append((XXH3.hash64(Array(lines.utf8)), lines.split(separator: "\n").first.map(String.init) ?? "\(step.action)"))
        }
        return hashes
    }
}
