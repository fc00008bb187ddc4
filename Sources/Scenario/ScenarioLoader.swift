import Checking
import Foundation
import Simulation
import StageCore
import StageWorld
import Yams

/// Reads scenario YAML files into `Scenario` values, with `file:line:column` errors for syntax
/// errors, wrong types, unknown keys and unknown participant names alike.
public enum ScenarioLoader {
    public static func load(path: String) throws -> Scenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError(file: path, line: 1, column: 1, message: "cannot read the file")
        }
        return try parse(data: data, path: path)
    }

    /// Reads a scenario file's bytes; bytes that are not UTF-8 are an error at their position.
    public static func parse(data: Data, path: String) throws -> Scenario {
        try parse(try text(of: data, path: path), path: path)
    }

    /// Every `.yaml`/`.yml` file under a directory, recursively, sorted by path
    /// (``ScenarioListing`` also names what could not be read).
    public static func scenarioFiles(under directory: String) -> [String] {
        ScenarioListing(under: directory).files
    }

    public static func parse(_ text: String, path: String) throws -> Scenario {
        let root: Node
        do {
            guard let composed = try Yams.compose(yaml: text) else {
                throw ScenarioError(file: path, line: 1, column: 1, message: "the file is empty")
            }
            root = composed
        } catch let error as YamlError {
            throw syntaxError(error, text: text, path: path)
        }
        try YAMLAliasCheck.check(root, text: text, file: path)
        var map = try YAMLNode(node: root, file: path).mapping("a scenario")
        let name = try map.required("name", in: "a scenario").string("name")
        let covers = try map.optional("covers").map { try $0.sequence("covers").map { try $0.string("a rule id") } } ?? []
        let seed = try map.optional("seed")?.uint64("seed") ?? 1
        let runLength = try map.optional("duration").map { try self.duration($0, "duration") } ?? VirtualDuration.seconds(30)
        let stageId = try map.optional("stage")?.string("stage") ?? "stage-1"
        let network = try map.optional("network").map { try link($0, base: LinkConditions()) } ?? LinkConditions()
        let keepalive = try map.optional("keepalive").map(keepalivePolicy) ?? KeepalivePolicy()
        let settle = try map.optional("settle").map { try duration($0, "settle") } ?? .seconds(5)
        let participantsNode = try map.required("participants", in: "a scenario")
        let participants = try participantsNode.sequence("participants").map {
            try participant($0, stageId: stageId, network: network)
        }
        let names = try uniqueNames(participants, node: participantsNode)
        let faults = try map.optional("faults").map { try faultPlan($0, names: names) } ?? FaultPlan()
        let injections = try map.optional("inject").map { try frameInjections($0, names: names) } ?? []
        let steps = try map.optional("steps").map { try self.steps($0, participants: participants, names: names) } ?? []
        let expectations = try map.optional("expect").map { try self.expectations($0, participants: participants, duration: runLength) } ?? []
        let schedule = try map.optional("schedule").map(scheduledActions)
        let scheduleEnd = try map.optional("scheduleEnd")?.oneOf("scheduleEnd", ScheduleEnd.self) ?? .quiescent
        let eventBudget = try map.optional("eventBudget").map { EventBudget(maximumActions: try $0.int("eventBudget", range: 1...1_000_000_000)) }
        let exhaustive = try map.optional("exhaustive").map { try exhaustiveObservers($0, names: names) } ?? []
        try map.finish("a scenario")
        var scenario = Scenario(
            path: path, name: name, covers: covers, seed: seed, duration: runLength, stageId: stageId,
            network: network, faults: faults, keepalive: keepalive, settle: settle, injections: injections, participants: participants, steps: steps,
            expectations: expectations, schedule: schedule, scheduleEnd: scheduleEnd, eventBudget: eventBudget
        )
        scenario.exhaustive = exhaustive
        return scenario
    }

    /// `schedule: [fire 12, drop 7, ...]`: a counterexample's actions, as `stagesim check` writes
    /// them, or a fuzz regression's recorded run.
    private static func scheduledActions(_ node: YAMLNode) throws -> [ScheduledAction] {
        try node.sequence("schedule").map { item in
            let text = try item.string("a scheduled action")
            guard let action = Action(scheduleText: text) else {
                throw item.error("a scheduled action is 'fire <sequence>' or 'drop <sequence>', not '\(text)'")
            }
            return ScheduledAction(action: action, line: item.line)
        }
    }

    static func duration(_ node: YAMLNode, _ what: String) throws -> VirtualDuration {
        let text = try node.string(what)
        guard let value = VirtualDuration(parsing: text) else {
            throw node.error("\(what) '\(text)' is not a duration; write e.g. 250ms, 1.5s, 30s")
        }
        return value
    }

    static func link(_ node: YAMLNode, base: LinkConditions) throws -> LinkConditions {
        var map = try node.mapping("network")
        var conditions = base
        if let value = map.optional("latency") { conditions.latencyMean = try duration(value, "latency") }
        if let value = map.optional("jitter") { conditions.jitterMax = try duration(value, "jitter") }
        if let value = map.optional("loss") { conditions.lossProbability = try value.probability("loss") }
        if let value = map.optional("jitterDistribution") { conditions.jitterDistribution = try value.oneOf("jitterDistribution", JitterDistribution.self) }
        if let value = map.optional("duplicate") { conditions.duplicationProbability = try value.probability("duplicate") }
        if let value = map.optional("reorder") { conditions.reorderProbability = try value.probability("reorder") }
        if let value = map.optional("signalingKbps") { conditions.signalingBitsPerSecond = try value.int("signalingKbps", range: 1...10_000_000) * 1000 }
        if let value = map.optional("retransmit") {
            conditions.retransmissionTimeout = try repeatingDuration(value, "network retransmit", atLeast: RepeatingWorkMinimums.retransmissionTimeout)
        }
        if let value = map.optional("downlinkKbps") { conditions.downlinkBitsPerSecond = try value.int("downlinkKbps", range: 1...10_000_000) * 1000 }
        if conditions.lossProbability >= 1 { throw node.error("loss must be below 1: a link that loses every transmission never delivers") }
        try map.finish("network")
        return conditions
    }

    private static func uniqueNames(_ participants: [ParticipantSpec], node: YAMLNode) throws -> Set<String> {
        var names = Set<String>()
        for (index, participant) in participants.enumerated() where !names.insert(participant.name).inserted {
            throw try node.sequence("participants")[index].error("participant '\(participant.name)' is declared twice")
        }
        return names
    }
}
