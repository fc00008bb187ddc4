import Simulation
import StageCore
import StageWorld

/// Scenario-file spellings of values, in YAML flow syntax, as `ScenarioLoader` reads them back.
/// Strings are written as JSON string literals, which are valid YAML double-quoted scalars.
enum YAMLText {
    static func map(_ attributes: Attributes) -> String {
        "{" + attributes.pairs.map { "\(TraceText.json($0.key)): \(TraceText.json($0.value))" }.joined(separator: ", ") + "}"
    }

    static func capabilities(_ capabilities: Capabilities) -> String {
        "[" + [capabilities.canPublish ? "publish" : nil, capabilities.canSubscribe ? "subscribe" : nil].compactMap { $0 }.joined(separator: ", ") + "]"
    }

    static func stream(_ stream: LocalStream) -> String {
        guard let configuration = stream.video else {
            return stream.instance == 0 && !stream.isMuted ? stream.kind.rawValue : "{kind: \(stream.kind.rawValue), instance: \(stream.instance), muted: \(stream.isMuted)}"
        }
        return "{kind: \(stream.kind.rawValue), instance: \(stream.instance), muted: \(stream.isMuted), video: \(video(configuration))}"
    }

    /// A video configuration as the `video:` mapping the loader reads back to the same value
    /// (LST-3): the settings that differ from the default, and always the size.
    static func video(_ configuration: VideoConfiguration) -> String {
        let base = VideoConfiguration()
        var keys: [String] = []
        if configuration.maxBitrateBitsPerSecond != base.maxBitrateBitsPerSecond { keys.append("maxBitrate: \(configuration.maxBitrateBitsPerSecond)") }
        if configuration.minBitrateBitsPerSecond != base.minBitrateBitsPerSecond { keys.append("minBitrate: \(configuration.minBitrateBitsPerSecond)") }
        if configuration.targetFramerateFramesPerSecond != base.targetFramerateFramesPerSecond { keys.append("framerate: \(configuration.targetFramerateFramesPerSecond)") }
        keys += ["width: \(configuration.widthPixels)", "height: \(configuration.heightPixels)"]
        if configuration.simulcastEnabled != base.simulcastEnabled { keys.append("simulcast: \(configuration.simulcastEnabled)") }
        if configuration.degradationPreference != base.degradationPreference { keys.append("degradation: \(configuration.degradationPreference.rawValue)") }
        return "{" + keys.joined(separator: ", ") + "}"
    }

    /// The `network:` keys of every setting that differs from the default link.
    static func linkKeys(_ link: LinkConditions) -> [String] {
        let base = LinkConditions()
        var keys: [String] = []
        if link.latencyMean != base.latencyMean { keys.append("latency: \(link.latencyMean)") }
        if link.jitterMax != base.jitterMax { keys.append("jitter: \(link.jitterMax)") }
        if link.jitterDistribution != base.jitterDistribution { keys.append("jitterDistribution: \(link.jitterDistribution.rawValue)") }
        if link.lossProbability != base.lossProbability { keys.append("loss: \(link.lossProbability)") }
        if link.duplicationProbability != base.duplicationProbability { keys.append("duplicate: \(link.duplicationProbability)") }
        if link.reorderProbability != base.reorderProbability { keys.append("reorder: \(link.reorderProbability)") }
        if let bits = link.signalingBitsPerSecond { keys.append("signalingKbps: \(bits / 1000)") }
        if link.retransmissionTimeout != base.retransmissionTimeout { keys.append("retransmit: \(link.retransmissionTimeout)") }
        if link.downlinkBitsPerSecond != base.downlinkBitsPerSecond { keys.append("downlinkKbps: \(link.downlinkBitsPerSecond / 1000)") }
        return keys
    }
}

extension ScriptCall {
    /// The step's `call:` and the keys that go with it.
    var yamlKeys: [String] {
        switch self {
        case .join: ["call: join"]
        case .leave: ["call: leave"]
        case .refreshStrategy: ["call: refreshStrategy"]
        case .setStrategy(let patch): ["call: setStrategy", "strategy: \(patch.yaml)"]
        case .setMuted(let kind, let muted): ["call: setMuted", "stream: \(kind.rawValue)", "muted: \(muted)"]
        case .exchangeToken(.raw(let text)): ["call: exchangeToken", "token: \(TraceText.json(text))"]
        case .exchangeToken(.patch(let patch)): ["call: exchangeToken", "token: \(patch.yaml)"]
        case .setPreferredResolution(let publisher, let width, let height):
            ["call: setPreferredResolution", "publisher: \(publisher)", "width: \(width)", "height: \(height)"]
        case .setPreferredFrameRate(let publisher, let fps): ["call: setPreferredFrameRate", "publisher: \(publisher)", "fps: \(fps)"]
        }
    }
}

extension StrategyPatch {
    var yaml: String {
        var keys: [String] = []
        if let publish { keys.append("publish: \(publish)") }
        if let subscribe { keys.append("subscribe: \(subscribe.rawValue)") }
        if let streams { keys.append("streams: [" + streams.map(YAMLText.stream).joined(separator: ", ") + "]") }
        if let rules { keys.append("rules: [" + rules.map(Self.rule).joined(separator: ", ") + "]") }
        return "{" + keys.joined(separator: ", ") + "}"
    }

    private static func rule(_ rule: SubscribeRule) -> String {
        var keys: [String] = []
        if let participant = rule.participantId { keys.append("participant: \(TraceText.json(participant))") }
        if !rule.attributes.isEmpty { keys.append("when: \(YAMLText.map(rule.attributes))") }
        keys.append("answer: \(rule.answer.rawValue)")
        return "{" + keys.joined(separator: ", ") + "}"
    }
}

extension ClaimsPatch {
    var yaml: String {
        var keys: [String] = []
        if let userId { keys.append("userId: \(TraceText.json(userId))") }
        if let attributes { keys.append("attributes: \(YAMLText.map(attributes))") }
        if let capabilities { keys.append("capabilities: \(YAMLText.capabilities(capabilities))") }
        if let expiresAtSeconds { keys.append("expiresAt: \(expiresAtSeconds)s") }
        if let issuedAtSeconds { keys.append("issuedAt: \(issuedAtSeconds)s") }
        let texts: [(String, String?)] = [("topic", topic), ("resource", resource), ("jti", participantId), ("whipUrl", whipURL), ("eventsUrl", eventsURL)]
        for case let (key, value?) in texts { keys.append("\(key): \(TraceText.json(value))") }
        if signer != .app { keys.append("signedBy: \(signer.rawValue)") }
        return "{" + keys.joined(separator: ", ") + "}"
    }
}

extension VideoConfiguration {
    /// This configuration as the `video:` mapping a scenario file gives it with (LST-3).
    public var scenarioText: String { YAMLText.video(self) }
}
