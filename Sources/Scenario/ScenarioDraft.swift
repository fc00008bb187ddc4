import StageWorld

/// A scenario as plain parts that can be generated, shrunk and written out as a scenario file:
/// the fuzzer's working form. `yaml` renders it in the format `ScenarioLoader` reads, so what
/// runs is always what a file would say. Strings are written as JSON string literals, which
/// are valid YAML double-quoted scalars.
public struct ScenarioDraft: Hashable, Sendable {
    public struct Participant: Hashable, Sendable {
        public var name: String
        public var sdk: String
        public var userId: String
        public var attributes: [String: String]
        public var capabilities: [String]
        public var publish: Bool
        public var subscribe: String
    }

    public struct Step: Hashable, Sendable {
        public var atMilliseconds: UInt64
        public var participant: String
        public var call: String
        /// Extra keys of the step, already in YAML flow syntax (e.g. `stream: video`).
        public var arguments: [String]
    }

    public struct Fault: Hashable, Sendable {
        /// nil: a service outage.
        public var participant: String?
        public var direction: String
        public var fromMilliseconds: UInt64
        public var toMilliseconds: UInt64
    }

    public var name: String
    public var seed: UInt64
    public var durationSeconds: UInt64
    /// `network:` keys in YAML flow syntax (e.g. `loss: 0.2`).
    public var network: [String]
    /// `keepalive:` keys in YAML flow syntax, or empty for the defaults.
    public var keepalive: [String] = []
    public var faults: [Fault]
    public var participants: [Participant]
    public var steps: [Step]
    /// Comment lines written at the top: how the draft came to be and how to replay it.
    public var comments: [String]
    /// The spec rule ids the file covers.
    public var covers: [String] = ["NET-2", "NET-3", "RND-3", "RND-5", "VIS-1", "TOK-5"]

    /// The draft as a scenario file.
    public var yaml: String {
        var lines = comments.map { "# \($0)" }
        lines += ["name: \(TraceText.json(name))", "covers: [\(covers.joined(separator: ", "))]", "seed: \(seed)", "duration: \(durationSeconds)s"]
        if !network.isEmpty { lines.append("network: {\(network.joined(separator: ", "))}") }
        if !keepalive.isEmpty { lines.append("keepalive: {\(keepalive.joined(separator: ", "))}") }
        if !faults.isEmpty {
            lines.append("faults:")
            lines += faults.map { fault in
                let target = fault.participant.map { "partition: \($0), direction: \(fault.direction)" } ?? "outage: service"
                return "  - {\(target), from: \(fault.fromMilliseconds)ms, to: \(fault.toMilliseconds)ms}"
            }
        }
        lines.append("participants:")
        lines += participants.map(participantLine)
        if !steps.isEmpty {
            lines.append("steps:")
            lines += steps.map { step in
                "  - {" + (["at: \(step.atMilliseconds)ms", "participant: \(step.participant)", "call: \(step.call)"] + step.arguments).joined(separator: ", ") + "}"
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func participantLine(_ participant: Participant) -> String {
        var keys = ["name: \(participant.name)", "sdk: \(participant.sdk)", "userId: \(TraceText.json(participant.userId))"]
        if !participant.attributes.isEmpty { keys.append("attributes: \(Self.flowMap(participant.attributes))") }
        keys.append("capabilities: [\(participant.capabilities.joined(separator: ", "))]")
        keys.append("strategy: {publish: \(participant.publish), subscribe: \(participant.subscribe)}")
        return "  - {" + keys.joined(separator: ", ") + "}"
    }

    /// A string map in YAML flow syntax with quoted values, keys sorted.
    static func flowMap(_ map: [String: String]) -> String {
        "{" + map.keys.sorted().map { "\($0): \(TraceText.json(map[$0] ?? ""))" }.joined(separator: ", ") + "}"
    }
}
