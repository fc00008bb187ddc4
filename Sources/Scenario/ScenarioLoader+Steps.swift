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

    /// One `expect` entry; `participant:` may name a declared participant or a token's jti.
    static func expectation(_ node: YAMLNode, names: Set<String>, subjects: Set<String>) throws -> Expectation {
        var map = try node.mapping("an expectation")
        let occurs = map.optional("event")
        let never = map.optional("never")
        guard (occurs == nil) != (never == nil), let eventNode = occurs ?? never else {
            throw node.error("an expectation needs exactly one of 'event' (must occur) or 'never' (must not occur)")
        }
        let event = try eventNode.string("event")
        guard EventMatcher.eventNames.contains(event) else {
            throw eventNode.error("unknown event '\(event)'; expected one of: \(EventMatcher.eventNames.joined(separator: ", "))")
        }
        var matcher = EventMatcher(event: event)
        matcher.observer = try map.optional("observer").map { try participantName($0, names: names) }
        matcher.participant = try map.optional("participant").map { try participantName($0, names: subjects) }
        matcher.state = try map.optional("state")?.string("state")
        matcher.userId = try map.optional("userId")?.string("userId")
        matcher.operation = try map.optional("operation")?.string("operation")
        matcher.frameType = try map.optional("type")?.string("type")
        matcher.contains = try map.optional("contains")?.string("contains")
        matcher.streams = try map.optional("streams").map { try $0.sequence("streams").map { try $0.oneOf("stream kind", MediaKind.self) } }
        if let errorNode = map.optional("error") {
            let text = try errorNode.string("error")
            guard let code = StageErrorCode(name: text) else {
                throw errorNode.error("unknown error code '\(text)'; expected e.g. TOKEN_EXPIRED, STAGE_AT_CAPACITY")
            }
            matcher.errorCode = code
        }
        let count = try map.optional("count")?.int("count", range: 0...1_000_000)
        if count != nil && never != nil { throw node.error("'count' goes with 'event', not with 'never'") }
        var expectation = Expectation(mode: never != nil ? .never : .occurs(count: count), matcher: matcher, line: node.line)
        if let window = map.optional("within") { try self.window(window, into: &expectation) }
        try map.finish("an expectation")
        return expectation
    }

    /// `within: [1s, 3s]`: the window of virtual time the expectation looks at.
    private static func window(_ node: YAMLNode, into expectation: inout Expectation) throws {
        let bounds = try node.sequence("within")
        guard bounds.count == 2 else { throw node.error("within takes two durations: [from, to]") }
        let start = try duration(bounds[0], "within start")
        let end = try duration(bounds[1], "within end")
        guard start <= end else { throw bounds[1].error("within ends (\(end)) before it starts (\(start))") }
        expectation.windowStart = start
        expectation.windowEnd = end
    }
}
