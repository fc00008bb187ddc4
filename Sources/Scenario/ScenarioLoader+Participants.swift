import Simulation
import StageCore
import StageWorld
import SubscriberModel

extension ScenarioLoader {
    static func participant(_ node: YAMLNode, stageId: String, network: LinkConditions) throws -> ParticipantSpec {
        var map = try node.mapping("a participant")
        let nameNode = try map.required("name", in: "a participant")
        let name = try nameNode.string("name")
        guard TokenClaims.isValidParticipantId(name) else {
            throw nameNode.error("participant name '\(name)' must use only A-Z, a-z, 0-9, '_' and '-' (it is the token's jti)")
        }
        let sdk = try map.optional("sdk").map { try sdkKind($0) } ?? .mobile(SemanticVersion(1, 37, 0))
        let token = try participantToken(&map, name: name, stageId: stageId)
        let link = try map.optional("network").map { try self.link($0, base: network) }
        let strategy = try map.optional("strategy").map { try strategyPatch($0).applied(to: StrategySpec()) } ?? StrategySpec()
        let video = try map.optional("video").map(videoConfiguration) ?? VideoConfiguration()
        let joinRetry = try map.optional("joinRetry").map(joinRetryPolicy) ?? JoinRetryPolicy()
        let composition = try map.optional("composition").map(compositionOptions) ?? CompositionOptions()
        let reconnect = try map.optional("reconnect").map(reconnectPolicy) ?? ReconnectPolicy()
        let mediaMode = try map.optional("mediaMode")?.oneOf("mediaMode", OpenTokMediaMode.self) ?? .routed
        let audioFallback = try map.optional("audioFallback")?.bool("audioFallback") ?? true
        let videoType = try map.optional("videoType")?.oneOf("videoType", OpenTokStream.VideoType.self) ?? .camera
        let connect = try connectMetadata(&map, participant: name, stageId: stageId)
        try map.finish("a participant")
        let config = ClientConfig(
            name: name, sdk: sdk, token: token, strategy: strategy, video: video, joinRetry: joinRetry, composition: composition,
            reconnect: reconnect, mediaMode: mediaMode, connectMetadata: connect, audioFallbackEnabled: audioFallback, videoType: videoType
        )
        return ParticipantSpec(config, link: link)
    }

    /// `composition: {featuredAttribute: featured, orderAttribute: order, liveLayoutUpdates: false}` (TOK-9).
    private static func compositionOptions(_ node: YAMLNode) throws -> CompositionOptions {
        var map = try node.mapping("composition")
        var options = CompositionOptions()
        if let value = map.optional("featuredAttribute") { options.featuredParticipantAttribute = try value.string("featuredAttribute") }
        if let value = map.optional("orderAttribute") { options.participantOrderAttribute = try value.string("orderAttribute") }
        if let value = map.optional("liveLayoutUpdates") { options.liveLayoutUpdates = try value.bool("liveLayoutUpdates") }
        try map.finish("composition")
        return options
    }

    /// `joinRetry: {attemptTimeout: 5s, window: 30s}`: how an unanswered join is retried (STG-3).
    private static func joinRetryPolicy(_ node: YAMLNode) throws -> JoinRetryPolicy {
        var map = try node.mapping("joinRetry")
        var policy = JoinRetryPolicy()
        if let value = map.optional("attemptTimeout") {
            policy.attemptTimeout = try repeatingDuration(value, "joinRetry attemptTimeout", atLeast: RepeatingWorkMinimums.joinAttemptTimeout)
        }
        if let value = map.optional("window") { policy.window = try duration(value, "window") }
        try map.finish("joinRetry")
        return policy
    }

    /// `video: {maxBitrate: 900000, minBitrate: 100000, framerate: 30, width: 360, height: 640,
    /// simulcast: true, degradation: balanced}`: each value goes through the SDK's validating
    /// setter, and a refusal is reported at the value (LST-3). A participant's `video` and a
    /// video stream's own (`localStream`) are read here alike.
    private static func videoConfiguration(_ node: YAMLNode) throws -> VideoConfiguration {
        var map = try node.mapping("video")
        var video = VideoConfiguration()
        func apply(_ key: String, _ set: (inout VideoConfiguration, Int) throws -> Void) throws {
            guard let value = map.optional(key) else { return }
            do {
                try set(&video, try value.int(key, range: Int.min...Int.max))
            } catch let error as VideoConfigurationError {
                throw value.error("video \(error)")
            }
        }
        try apply("maxBitrate") { try $0.setMaxBitrate($1) }
        try apply("minBitrate") { try $0.setMinBitrate($1) }
        try apply("framerate") { try $0.setTargetFramerate($1) }
        let width = try map.optional("width")?.int("width", range: 1...100_000)
        let heightNode = map.optional("height")
        if let width, let heightNode {
            do {
                try video.setSize(widthPixels: width, heightPixels: try heightNode.int("height", range: 1...100_000))
            } catch let error as VideoConfigurationError {
                throw heightNode.error("video \(error)")
            }
        } else if width != nil || heightNode != nil {
            throw node.error("video size needs both 'width' and 'height'")
        }
        if let value = map.optional("simulcast") { video.simulcastEnabled = try value.bool("simulcast") }
        if let value = map.optional("degradation") { video.degradationPreference = try value.oneOf("degradation", DegradationPreference.self) }
        try map.finish("video")
        return video
    }

    private static func sdkKind(_ node: YAMLNode) throws -> SDKKind {
        let text = try node.string("sdk")
        guard let kind = SDKKind(parsing: text) else {
            throw node.error("sdk '\(text)' is not one of: mobile X.Y.Z, web X.Y.Z, composition")
        }
        return kind
    }

    static func capabilities(_ node: YAMLNode) throws -> Capabilities {
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

    /// A strategy mapping; keys not given stay nil (setStrategy patches the current strategy).
    static func strategyPatch(_ node: YAMLNode) throws -> StrategyPatch {
        var map = try node.mapping("strategy")
        var patch = StrategyPatch()
        if let value = map.optional("publish") { patch.publish = try value.bool("publish") }
        if let value = map.optional("streams") { patch.streams = try value.sequence("streams").map(localStream) }
        if let value = map.optional("subscribe") { patch.subscribe = try value.oneOf("subscribe answer", SubscribeType.self) }
        if let value = map.optional("rules") { patch.rules = try value.sequence("rules").map(subscribeRule) }
        try map.finish("strategy")
        return patch
    }

    /// `audio`, or `{kind: video, instance: 2, muted: true, video: {width: 360, height: 640}}`:
    /// a LocalStageStream object (LST-2); a video stream may carry its own video configuration,
    /// with the keys of a participant's `video` (LST-3, the seed's
    /// `IVSLocalStageStream(device: camera, configuration: config)`).
    private static func localStream(_ node: YAMLNode) throws -> LocalStream {
        guard node.node.mapping != nil else { return LocalStream(kind: try node.oneOf("stream kind", MediaKind.self)) }
        var map = try node.mapping("a stream")
        let kind = try map.required("kind", in: "a stream").oneOf("stream kind", MediaKind.self)
        let instance = try map.optional("instance")?.int("instance", range: 0...1_000_000) ?? 0
        let muted = try map.optional("muted")?.bool("muted") ?? false
        var video: VideoConfiguration?
        if let value = map.optional("video") {
            guard kind == .video else { throw value.error("only a video stream has a video configuration") }
            video = try videoConfiguration(value)
        }
        try map.finish("a stream")
        return LocalStream(kind: kind, instance: UInt32(instance), isMuted: muted, video: video)
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
