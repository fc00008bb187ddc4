import Simulation
import StageCore
import StageWorld

extension ScenarioLoader {
    static func participant(_ node: YAMLNode, stageId: String, network: LinkConditions) throws -> ParticipantSpec {
        var map = try node.mapping("a participant")
        let nameNode = try map.required("name", in: "a participant")
        let name = try nameNode.string("name")
        guard TokenClaims.isValidParticipantId(name) else {
            throw nameNode.error("participant name '\(name)' must use only A-Z, a-z, 0-9, '_' and '-' (it is the token's jti)")
        }
        let sdk = try map.optional("sdk").map { try sdkKind($0) } ?? .mobile(SemanticVersion(1, 37, 0))
        let userId = try map.optional("userId")?.string("userId") ?? ""
        let attributes = try map.optional("attributes").map { Attributes(try $0.stringMap("attributes")) } ?? [:]
        let capabilities = try map.optional("capabilities").map { try self.capabilities($0) } ?? Capabilities()
        let expiry = try map.optional("tokenExpiresAt").map { try duration($0, "tokenExpiresAt") } ?? .seconds(3600)
        let topic = try map.optional("tokenTopic")?.string("tokenTopic") ?? stageId
        let link = try map.optional("network").map { try self.link($0, base: network) }
        let strategy = try map.optional("strategy").map { try self.strategy($0, base: StrategySpec()) } ?? StrategySpec()
        try map.finish("a participant")
        let token = TokenClaims(
            topic: topic, resource: "arn:stagesim:stage/\(stageId)", participantId: name,
            whipURL: "https://sim.invalid/whip", eventsURL: "wss://sim.invalid/events",
            attributes: attributes, capabilities: capabilities, userId: userId,
            issuedAtSeconds: 0, expiresAtSeconds: expiry.nanoseconds / 1_000_000_000
        )
        return ParticipantSpec(name: name, sdk: sdk, token: token, link: link, strategy: strategy)
    }

    private static func sdkKind(_ node: YAMLNode) throws -> SDKKind {
        let text = try node.string("sdk")
        guard let kind = SDKKind(parsing: text) else {
            throw node.error("sdk '\(text)' is not one of: mobile X.Y.Z, web X.Y.Z, composition")
        }
        return kind
    }

    private static func capabilities(_ node: YAMLNode) throws -> Capabilities {
        var capabilities = Capabilities(canPublish: false, canSubscribe: false)
        for item in try node.sequence("capabilities") {
            switch try item.string("a capability") {
            case "publish": capabilities.canPublish = true
            case "subscribe": capabilities.canSubscribe = true
            case let other: throw item.error("unknown capability '\(other)'; expected publish or subscribe")
            }
        }
        return capabilities
    }

    /// A strategy mapping; keys not given keep `base`'s answers (setStrategy patches this way).
    static func strategy(_ node: YAMLNode, base: StrategySpec) throws -> StrategySpec {
        var map = try node.mapping("strategy")
        var spec = base
        if let value = map.optional("publish") { spec.publish = try value.bool("publish") }
        if let value = map.optional("streams") {
            spec.streams = try value.sequence("streams").map(localStream)
        }
        if let value = map.optional("subscribe") { spec.subscribe = try value.oneOf("subscribe answer", SubscribeType.self) }
        if let value = map.optional("rules") { spec.rules = try value.sequence("rules").map(subscribeRule) }
        try map.finish("strategy")
        return spec
    }

    /// `audio`, or `{kind: video, instance: 2, muted: true}`: a LocalStageStream object (LST-2).
    private static func localStream(_ node: YAMLNode) throws -> LocalStream {
        guard node.node.mapping != nil else { return LocalStream(kind: try node.oneOf("stream kind", MediaKind.self)) }
        var map = try node.mapping("a stream")
        let kind = try map.required("kind", in: "a stream").oneOf("stream kind", MediaKind.self)
        let instance = try map.optional("instance")?.int("instance", range: 0...1_000_000) ?? 0
        let muted = try map.optional("muted")?.bool("muted") ?? false
        try map.finish("a stream")
        return LocalStream(kind: kind, instance: UInt32(instance), isMuted: muted)
    }

    private static func subscribeRule(_ node: YAMLNode) throws -> SubscribeRule {
        var map = try node.mapping("a subscribe rule")
        let participant = try map.optional("participant")?.string("participant")
        let attributes = try map.optional("when").map { Attributes(try $0.stringMap("when")) } ?? [:]
        let answer = try map.required("answer", in: "a subscribe rule").oneOf("subscribe answer", SubscribeType.self)
        try map.finish("a subscribe rule")
        return SubscribeRule(participantId: participant, attributes: attributes, answer: answer)
    }
}
