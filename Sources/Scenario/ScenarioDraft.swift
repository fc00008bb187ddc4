import Signaling
import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// A scenario as typed parts that can be generated, shrunk, run and written out as a scenario
/// file: the fuzzer's working form. `yaml` renders it in the format `ScenarioLoader` reads and
/// `scenario` builds the same `Scenario` directly (a test holds the two equal), so what runs
/// is always what the file says.
public struct ScenarioDraft: Hashable, Sendable {
    public struct Participant: Hashable, Sendable {
        public var name: String
        public var sdk: SDKKind
        public var userId: String
        public var attributes: Attributes
        public var capabilities: Capabilities
        public var publish: Bool
        public var subscribe: SubscribeType
        /// The token's `exp` in virtual seconds; nil: the loader's default (TOK-1).
        public var tokenExpiresAtSeconds: UInt64?
        /// A token `topic` or `resource` naming another stage; nil: this stage's (TOK-1).
        public var tokenTopic: String?
        public var tokenResource: String?
        /// The token's `jti` when it is not the participant's name: another participant's, for
        /// one token joined from two clients (TOK-10); nil: its name.
        public var tokenJti: String?
        /// Who signs its join token: the app's key pair, or the service (a token from the
        /// CreateParticipantToken API, which cannot be exchanged, TOK-3).
        public var tokenSignedBy = TokenSigner.app
        /// This participant's link latency; nil: the scenario's link (SIG-6 late pongs).
        public var latency: VirtualDuration?
        /// nil: the default join retry (STG-3).
        public var joinRetry: JoinRetryPolicy?
        /// nil: the default reconnect policy (NET-3).
        public var reconnect: ReconnectPolicy?
        /// SUB-6: whether its subscribers may fall back to audio for quality.
        public var audioFallback = true
        /// What it sends with `connect`: `metadata` for the service only, `notifyMetadata` for everyone (SIG-2).
        public var signalingMetadata: Attributes?
        public var notifyMetadata: Attributes?
        /// SUB-7: its video source.
        public var videoType = OpenTokStream.VideoType.camera
        /// Its video configuration (size, bitrates, frame rate, simulcast: LST-3, LST-4, SUB-7);
        /// nil: the default configuration.
        public var video: VideoConfiguration?

        public init(
            name: String, sdk: SDKKind, userId: String, attributes: Attributes, capabilities: Capabilities, publish: Bool,
            subscribe: SubscribeType, tokenExpiresAtSeconds: UInt64? = nil, tokenTopic: String? = nil, tokenResource: String? = nil,
            latency: VirtualDuration? = nil, joinRetry: JoinRetryPolicy? = nil, audioFallback: Bool = true,
            signalingMetadata: Attributes? = nil, notifyMetadata: Attributes? = nil
        ) {
            self.name = name
            self.sdk = sdk
            self.userId = userId
            self.attributes = attributes
            self.capabilities = capabilities
            self.publish = publish
            self.subscribe = subscribe
            self.tokenExpiresAtSeconds = tokenExpiresAtSeconds
            self.tokenTopic = tokenTopic
            self.tokenResource = tokenResource
            self.latency = latency
            self.joinRetry = joinRetry
            self.audioFallback = audioFallback
            self.signalingMetadata = signalingMetadata
            self.notifyMetadata = notifyMetadata
        }
    }

    public struct Step: Hashable, Sendable {
        public var atMilliseconds: UInt64
        public var participant: String
        public var call: ScriptCall

        public init(atMilliseconds: UInt64, participant: String, call: ScriptCall) {
            self.atMilliseconds = atMilliseconds
            self.participant = participant
            self.call = call
        }
    }

    public struct Fault: Hashable, Sendable {
        /// nil: a service outage.
        public var participant: String?
        public var direction: PartitionDirection
        public var fromMilliseconds: UInt64
        public var toMilliseconds: UInt64

        public init(participant: String?, direction: PartitionDirection, fromMilliseconds: UInt64, toMilliseconds: UInt64) {
            self.participant = participant
            self.direction = direction
            self.fromMilliseconds = fromMilliseconds
            self.toMilliseconds = toMilliseconds
        }
    }

    /// A raw frame the network hands a participant at a time, as if the service sent it (SIG-8).
    public struct Injection: Hashable, Sendable {
        public var atMilliseconds: UInt64
        public var participant: String
        public var frame: String

        public init(atMilliseconds: UInt64, participant: String, frame: String) {
            self.atMilliseconds = atMilliseconds
            self.participant = participant
            self.frame = frame
        }
    }

    public var name: String
    public var seed: UInt64
    public var durationSeconds: UInt64
    /// Every participant's link.
    public var network = LinkConditions()
    /// nil: the default keepalive.
    public var keepalive: KeepalivePolicy?
    public var faults: [Fault]
    public var participants: [Participant]
    public var steps: [Step]
    /// Frames injected from outside, written after the steps (so the steps' lines stay put).
    public var injections: [Injection] = []
    /// Comment lines written at the top: how the draft came to be and how to replay it.
    public var comments: [String]
    /// The spec rule ids the file covers.
    public var covers: [String] = Self.defaultCovers
    /// What a generated scenario covers unless told otherwise.
    public static let defaultCovers = ["NET-2", "NET-3", "RND-3", "RND-5", "VIS-1", "TOK-5"]

    public init(
        name: String, seed: UInt64, durationSeconds: UInt64, network: LinkConditions = LinkConditions(), keepalive: KeepalivePolicy? = nil,
        faults: [Fault], participants: [Participant], steps: [Step], comments: [String],
        covers: [String] = Self.defaultCovers
    ) {
        self.name = name
        self.seed = seed
        self.durationSeconds = durationSeconds
        self.network = network
        self.keepalive = keepalive
        self.faults = faults
        self.participants = participants
        self.steps = steps
        self.comments = comments
        self.covers = covers
    }

    /// The path a file of this draft is reported under when it has none.
    public var path: String { "generated-\(seed).yaml" }

    /// The scenario the draft's file loads as, built without writing and reading the file.
    public func scenario(path: String? = nil) -> Scenario {
        let specs = participants.map { $0.spec(network: network) }
        var state = ScriptState(specs)
        // after the header, `participants:`, one line per participant and `steps:`
        let firstStepLine = headerLines.count + 1 + participants.count + 2
        let scenarioSteps = steps.enumerated().compactMap { offset, step -> ScenarioStep? in
            let at = VirtualDuration.milliseconds(step.atMilliseconds)
            return state.hostCall(step.call, participant: step.participant, at: at)
                .map { ScenarioStep(at: at, participant: step.participant, call: $0, line: firstStepLine + offset) }
        }
        let plan = FaultPlan(partitions: faults.map {
            Partition(clientName: $0.participant, direction: $0.direction,
                      start: .zero + .milliseconds($0.fromMilliseconds), end: .zero + .milliseconds($0.toMilliseconds))
        })
        return Scenario(
            path: path ?? self.path, name: name, covers: covers, seed: seed, duration: .seconds(durationSeconds), stageId: Self.stageId,
            network: network, faults: plan, keepalive: keepalive ?? KeepalivePolicy(), settle: .seconds(5),
            injections: injections.map { FrameInjection(at: .milliseconds($0.atMilliseconds), participant: $0.participant, frame: $0.frame) },
            participants: specs, steps: scenarioSteps, expectations: []
        )
    }

    static let stageId = "stage-1"

    /// The draft as a scenario file.
    public var yaml: String {
        var lines = headerLines
        lines.append("participants:")
        lines += participants.map { "  - {" + $0.yamlKeys.joined(separator: ", ") + "}" }
        if !steps.isEmpty {
            lines.append("steps:")
            lines += steps.map { step in
                "  - {" + (["at: \(step.atMilliseconds)ms", "participant: \(step.participant)"] + step.call.yamlKeys).joined(separator: ", ") + "}"
            }
        }
        if !injections.isEmpty {
            lines.append("inject:")
            lines += injections.map { "  - {at: \($0.atMilliseconds)ms, to: \($0.participant), frame: \(TraceText.json($0.frame))}" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every line before `participants:`.
    private var headerLines: [String] {
        var lines = comments.map { "# \($0)" }
        lines += ["name: \(TraceText.json(name))", "covers: [\(covers.joined(separator: ", "))]", "seed: \(seed)", "duration: \(durationSeconds)s"]
        let networkKeys = YAMLText.linkKeys(network)
        if !networkKeys.isEmpty { lines.append("network: {\(networkKeys.joined(separator: ", "))}") }
        if let keepalive {
            lines.append("keepalive: {pingInterval: \(keepalive.pingInterval), pongTimeout: \(keepalive.pongTimeout), reconnectGrace: \(keepalive.reconnectGrace)}")
        }
        if !faults.isEmpty {
            lines.append("faults:")
            lines += faults.map { fault in
                let target = fault.participant.map { "partition: \($0), direction: \(fault.direction.rawValue)" } ?? "outage: service"
                return "  - {\(target), from: \(fault.fromMilliseconds)ms, to: \(fault.toMilliseconds)ms}"
            }
        }
        return lines
    }
}

extension ScenarioDraft.Participant {
    /// The participant as the loader declares it: a token of these claims signed as declared,
    /// this strategy, and defaults for everything else; `network` is the scenario's link.
    func spec(network: LinkConditions) -> ParticipantSpec {
        var claims = StageKeys.claims(
            participantId: tokenJti ?? name, stageId: ScenarioDraft.stageId, userId: userId, attributes: attributes, capabilities: capabilities
        )
        if let tokenExpiresAtSeconds { claims.expiresAtSeconds = tokenExpiresAtSeconds }
        if let tokenTopic { claims.topic = tokenTopic }
        if let tokenResource { claims.resource = tokenResource }
        let link = latency.map { latency in
            var link = network
            link.latencyMean = latency
            return link
        }
        let config = ClientConfig(
            name: name, sdk: sdk, token: .signed(claims, by: tokenSignedBy), strategy: StrategySpec(publish: publish, subscribe: subscribe),
            video: video ?? VideoConfiguration(), joinRetry: joinRetry ?? JoinRetryPolicy(), reconnect: reconnect ?? ReconnectPolicy(),
            connectMetadata: ConnectMetadata(metadata: signalingMetadata.map(Self.json), notifyMetadata: notifyMetadata.map(Self.json)),
            audioFallbackEnabled: audioFallback, videoType: videoType
        )
        return ParticipantSpec(config, link: link)
    }

    /// A string map as the JSON object the loader reads from its YAML mapping.
    private static func json(_ map: Attributes) -> JSONValue {
        .object(JSONObject(map.pairs.map { ($0.key, JSONValue.string($0.value)) }))
    }

    var yamlKeys: [String] {
        var keys = ["name: \(name)", "sdk: \(sdk)", "userId: \(TraceText.json(userId))"]
        if !attributes.isEmpty { keys.append("attributes: \(YAMLText.map(attributes))") }
        keys.append("capabilities: \(YAMLText.capabilities(capabilities))")
        if let tokenExpiresAtSeconds { keys.append("tokenExpiresAt: \(tokenExpiresAtSeconds)s") }
        if let tokenTopic { keys.append("tokenTopic: \(TraceText.json(tokenTopic))") }
        if let tokenResource { keys.append("tokenResource: \(TraceText.json(tokenResource))") }
        if let tokenJti { keys.append("tokenJti: \(tokenJti)") }
        if tokenSignedBy != .app { keys.append("tokenSignedBy: \(tokenSignedBy.rawValue)") }
        if let latency { keys.append("network: {latency: \(latency)}") }
        if let joinRetry { keys.append("joinRetry: {attemptTimeout: \(joinRetry.attemptTimeout), window: \(joinRetry.window)}") }
        if let reconnect {
            keys.append("reconnect: {backoff: \(reconnect.backoffBase), multiplier: \(reconnect.backoffMultiplier), cap: \(reconnect.backoffCap), attempts: \(reconnect.maxAttempts)}")
        }
        if !audioFallback { keys.append("audioFallback: false") }
        if let video { keys.append("video: \(YAMLText.video(video))") }
        if videoType != .camera { keys.append("videoType: \(videoType.rawValue)") }
        if let signalingMetadata { keys.append("signalingMetadata: \(YAMLText.map(signalingMetadata))") }
        if let notifyMetadata { keys.append("notifyMetadata: \(YAMLText.map(notifyMetadata))") }
        keys.append("strategy: {publish: \(publish), subscribe: \(subscribe.rawValue)}")
        return keys
    }

    /// The settings beyond name, SDK, claims and strategy that differ from the defaults, for
    /// the parameters printed under a seed.
    public var extras: [String] {
        var extras: [String] = []
        if let tokenExpiresAtSeconds { extras.append("exp=\(tokenExpiresAtSeconds)s") }
        if let tokenTopic { extras.append("topic=\(tokenTopic)") }
        if let tokenResource { extras.append("resource=\(tokenResource)") }
        if let tokenJti { extras.append("jti=\(tokenJti)") }
        if tokenSignedBy != .app { extras.append("signedBy=\(tokenSignedBy.rawValue)") }
        if let latency { extras.append("latency=\(latency)") }
        if let joinRetry { extras.append("joinRetry=\(joinRetry.attemptTimeout)/\(joinRetry.window)") }
        if let reconnect { extras.append("reconnect=\(reconnect.backoffBase)x\(reconnect.backoffMultiplier)/\(reconnect.backoffCap)/\(reconnect.maxAttempts)") }
        if !audioFallback { extras.append("audioFallback=false") }
        if let video { extras.append("video=\(YAMLText.video(video))") }
        if videoType != .camera { extras.append("videoType=\(videoType.rawValue)") }
        if let signalingMetadata { extras.append("metadata=\(YAMLText.map(signalingMetadata))") }
        if let notifyMetadata { extras.append("notifyMetadata=\(YAMLText.map(notifyMetadata))") }
        return extras
    }
}
