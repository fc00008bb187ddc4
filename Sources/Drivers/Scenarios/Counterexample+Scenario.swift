import Checking
import Scenario
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
    static let droppedKeys: Set<String> = ["expect", "faults", "schedule", "scheduleEnd"]

    public static func text(original: String, counterexample: Counterexample, steps: [String], header: [String]) -> String {
        ScheduleText.text(original: original, dropping: droppedKeys, header: header, schedule: zip(counterexample.actions, steps).map { ($0, $1) })
    }
}

/// A fuzz regression file: the shrunk scenario with its seed, and a `schedule:` of the exact
/// actions of its timed run (`scheduleEnd: timed`), so that a change in the order of PRNG
/// draws cannot quietly turn it into a run that no longer reaches its bug.
public enum RegressionFile {
    /// Top-level keys replaced when the schedule is written again.
    static let replacedKeys: Set<String> = ["schedule", "scheduleEnd"]

    /// The command that writes a regression file's schedule again from a timed run of its seed.
    public static func regenerateCommand(_ path: String) -> String { "stagesim replay --reschedule \(path)" }

    /// `original` with its schedule replaced by `actions`, taken from `world` (the scenario's
    /// initial world), each with what it does as a comment.
    public static func text(original: String, world: World, actions: [Action]) -> String {
        var loop = StepLoop(world: world)
        let schedule = actions.map { action in
            defer { loop.step(action) }
            return (action, loop.world.describe(action))
        }
        return ScheduleText.text(original: original, dropping: replacedKeys, header: [], extra: ["scheduleEnd: timed"], schedule: schedule)
    }
}

/// Scenario text with a `schedule:` block, as the counterexample and regression files write it.
enum ScheduleText {
    /// The header as comments, the original's lines minus the blocks of the `dropping`
    /// top-level keys, `extra` lines, then the schedule, one action a line with its comment.
    static func text(original: String, dropping: Set<String>, header: [String], extra: [String] = [], schedule: [(Action, String)]) -> String {
        let lines = schedule.map { action, step in "  - \(action.scheduleText)  # \(step)" }
        return (header.map { "# \($0)" } + keptLines(of: original, dropping: dropping) + extra + ["schedule:"] + lines).joined(separator: "\n") + "\n"
    }

    /// The original's lines, minus the blocks of the dropped top-level keys.
    private static func keptLines(of text: String, dropping keys: Set<String>) -> [String] {
        var kept: [String] = []
        var dropping = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let key = topLevelKey(line) { dropping = keys.contains(key) }
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
