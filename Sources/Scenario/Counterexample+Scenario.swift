import Checking
import StageWorld

extension Scenario {
    /// The scenario as the model checker explores it. Partitions are left out: time is
    /// abstracted, and losses are explored as drops instead. Links lose jitter, duplication and
    /// reordering: they only move due times, which the checker leaves out (the receiving
    /// transport hides duplicates and restores order anyway).
    public var forChecking: Scenario {
        var scenario = self
        scenario.faults = FaultPlan()
        scenario.network = Self.untimed(network)
        for index in scenario.participants.indices {
            scenario.participants[index].link = participants[index].link.map(Self.untimed)
        }
        return scenario
    }

    private static func untimed(_ link: LinkConditions) -> LinkConditions {
        var link = link
        link.jitterMax = .zero
        link.duplicationProbability = 0
        link.reorderProbability = 0
        return link
    }
}

/// A counterexample written as a scenario file that `stagesim run` replays to the same
/// violation: the original file without its expectations, faults and any old schedule, and a
/// `schedule:` of the path's actions, each with what it does as a comment.
public enum CounterexampleFile {
    /// Top-level keys the replay file drops: the schedule replaces the timed run they describe.
    static let droppedKeys: Set<String> = ["expect", "faults", "schedule"]

    public static func text(original: String, counterexample: Counterexample, steps: [String], header: [String]) -> String {
        let kept = keptLines(of: original)
        let schedule = zip(counterexample.actions, steps).map { action, step in "  - \(action.scheduleText)  # \(step)" }
        return (header.map { "# \($0)" } + kept + ["schedule:"] + schedule).joined(separator: "\n") + "\n"
    }

    /// The original's lines, minus the blocks of the dropped top-level keys.
    private static func keptLines(of text: String) -> [String] {
        var kept: [String] = []
        var dropping = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let key = topLevelKey(line) { dropping = droppedKeys.contains(key) }
            if !dropping { kept.append(line) }
        }
        while kept.last?.isEmpty == true { kept.removeLast() }
        return kept
    }

    private static func topLevelKey(_ line: String) -> String? {
        guard let first = line.first, first != " ", first != "#", first != "-", let colon = line.firstIndex(of: ":") else { return nil }
        return String(line[..<colon])
    }
}
