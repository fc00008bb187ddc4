import Simulation
import StageCore
import StageWorld

extension ScenarioLoader {
    static func steps(_ node: YAMLNode, participants: [ParticipantSpec], names: Set<String>) throws -> [ScenarioStep] {
        var state = ScriptState(participants)
        var steps: [ScenarioStep] = []
        for item in try node.sequence("steps") {
            var map = try item.mapping("a step")
            let atNode = try map.required("at", in: "a step")
            let at = try duration(atNode, "at")
            if let previous = steps.last, at < previous.at {
                throw atNode.error("steps must be in time order: \(at) comes after \(previous.at)")
            }
            let name = try participantName(try map.required("participant", in: "a step"), names: names)
            let callNode = try map.required("call", in: "a step")
            let call = try scriptCall(callNode, in: &map, names: names)
            guard let hostCall = state.hostCall(call, participant: name, at: at) else {
                throw (map.optional("token") ?? callNode).error("this participant's token is a raw string; give the exchanged token as a raw string too")
            }
            try map.finish("a step")
            steps.append(ScenarioStep(at: at, participant: name, call: hostCall, line: item.line))
        }
        return steps
    }

    /// A step's `call:` and the keys that go with it.
    private static func scriptCall(_ callNode: YAMLNode, in map: inout YAMLMapping, names: Set<String>) throws -> ScriptCall {
        switch try callNode.string("call") {
        case "join": return .join
        case "leave": return .leave
        case "refreshStrategy": return .refreshStrategy
        case "setStrategy": return .setStrategy(try strategyPatch(try map.required("strategy", in: "a setStrategy step")))
        case "setMuted":
            let kind = try map.required("stream", in: "a setMuted step").oneOf("stream kind", MediaKind.self)
            return .setMuted(kind, muted: try map.required("muted", in: "a setMuted step").bool("muted"))
        case "exchangeToken": return .exchangeToken(try exchangedToken(try map.required("token", in: "an exchangeToken step")))
        case "setPreferredResolution":
            let publisher = try participantName(try map.required("publisher", in: "a setPreferredResolution step"), names: names)
            let width = try map.required("width", in: "a setPreferredResolution step").int("width", range: 0...10_000)
            let height = try map.required("height", in: "a setPreferredResolution step").int("height", range: 0...10_000)
            return .setPreferredResolution(publisherId: publisher, widthPixels: width, heightPixels: height)
        case "setPreferredFrameRate":
            let publisher = try participantName(try map.required("publisher", in: "a setPreferredFrameRate step"), names: names)
            let fps = try map.required("fps", in: "a setPreferredFrameRate step").int("fps", range: 0...240)
            return .setPreferredFrameRate(publisherId: publisher, framesPerSecond: fps)
        case let other:
            throw callNode.error("unknown call '\(other)'; expected \(ScriptCall.names.dropLast().joined(separator: ", ")) or \(ScriptCall.names.last ?? "")")
        }
    }

    static func participantName(_ node: YAMLNode, names: Set<String>) throws -> String {
        let name = try node.string("participant")
        guard names.contains(name) else {
            throw node.error("unknown participant '\(name)'; declared: \(names.sorted().joined(separator: ", "))")
        }
        return name
    }
}
