import Signaling
import StageCore
import StageWorld

/// One participant's stage, as the SDK's `IVSStage` (STG-1): created from a token and a
/// strategy, joined and left by the host, with any number of renderers and one error delegate.
///
/// A `Stage` is a handle: the participant's state lives in the simulation's `World` value, and
/// `join()`, `leave()` and `refreshStrategy()` schedule host calls there at the simulation's
/// current virtual time. Nothing happens until `StageSimulation.run(for:)` advances the clock.
///
/// The stage keeps its strategy and renderers alive (strong references), so a test can write
/// `Stage(token: token, strategy: VideoChatStrategy())`; the error delegate is weak, as in the SDK.
public final class Stage {
    /// The participant token (a signed JWT, TOK-2) the stage holds: the one it was created with,
    /// until an exchange is accepted (TOK-5). A refused exchange keeps it (TOK-4, TOK-3).
    public var token: String {
        guard let simulation, let index = simulation.world.clientIndex(named: participantId) else { return initialToken }
        return simulation.world.clients[index].token
    }
    /// The token the app created the stage with.
    let initialToken: String
    /// The local participant's id: the token's `jti` (TOK-2).
    public let participantId: String
    /// Answers the SDK's questions while the simulation steps (STR-1, STR-3, STR-4).
    public let strategy: any StageStrategy
    /// The SDK this stage runs, which decides which metadata events it sees (VIS-1).
    public let sdk: SDKKind
    /// The renderers, in the order they were added; each gets every event in trace order (RND-1).
    public private(set) var renderers: [any StageRenderer] = []
    /// Receives publish and subscribe errors (STG-1, STG-4).
    public weak var errorDelegate: (any StageErrorDelegate)?
    /// SIG-7, the raw level: every signaling text frame that reaches this client, as received,
    /// including frames that turn out to be protocol errors.
    public var onReceive: ((String) -> Void)?
    /// SIG-7, the decoded level: every signaling message that reaches this client and decodes.
    /// The same handler as `mediaChannel.handlers.onReceiveSignaling`.
    public var onReceiveSignaling: ((SignalingMessage) -> Void)? {
        get { mediaChannel.handlers.onReceiveSignaling }
        set { mediaChannel.handlers.onReceiveSignaling = newValue }
    }
    /// SIG-7 under the Sora SDK's names: `mediaChannel.handlers.onReceiveSignaling` (decoded
    /// messages) and `mediaChannel.webSocketChannel.handlers.onReceive` (WebSocket messages).
    public let mediaChannel = MediaChannel()
    /// The receiving end of this stage's signaling: both handler levels, and the protocol log.
    public internal(set) var signaling = SignalingEndpoint()
    /// SIG-2, SIG-3: the seed's Sora `Configuration` with this stage's connect metadata; read
    /// when the simulation starts. `signalingConnectMetadata` and
    /// `signalingConnectNotifyMetadata` below are its two properties.
    public var configuration = Configuration()
    /// SIG-2, SIG-3: the `metadata` of this stage's `connect`, as the seed's
    /// `Configuration.signalingConnectMetadata`: any value conforming to `Encodable`
    /// ("どちらも Encodable プロトコルに準拠した値を指定します"), so Bool, Int, Float, String,
    /// arrays and dictionaries of them need no encoding code of the app's own. It is converted to
    /// JSON (`JSONValue(encoding:)`; a `JSONValue` is sent exactly as it is) and sent:
    /// `"contents"` gives `{"type":"connect","metadata":"contents",...}`, `["key": "value"]`
    /// gives `{"type":"connect","metadata":{"key":"value"},...}`. Read when the simulation
    /// starts: a value JSON cannot express (a non-finite number, nesting deeper than
    /// `JSONValue.maximumDepth`) makes the first `run(for:)` throw
    /// `StageSimulationError.metadataNotEncodable`.
    public var signalingConnectMetadata: (any Encodable)? {
        get { configuration.signalingConnectMetadata }
        set { configuration.signalingConnectMetadata = newValue }
    }
    /// SIG-2: the `signaling_notify_metadata` of this stage's `connect` (the seed's
    /// `Configuration.signalingConnectNotifyMetadata`, any `Encodable` value, converted as
    /// `signalingConnectMetadata` is), which the service passes on to every other participant
    /// in `notify` connection.created. Read when the simulation starts.
    public var signalingConnectNotifyMetadata: (any Encodable)? {
        get { configuration.signalingConnectNotifyMetadata }
        set { configuration.signalingConnectNotifyMetadata = newValue }
    }
    /// LST-3, LST-4: the configuration of the video this stage publishes, as the seed's
    /// `IVSLocalStageStreamVideoConfiguration`: `try setMaxBitrate(900_000)`,
    /// `try setMinBitrate(100_000)`, `try setTargetFramerate(30)`, `try setSize(...)` validate each
    /// value, and simulcast is on until `simulcastEnabled = false` ("Layered encoding with
    /// simulcast is on by default. You can disable it"). The seed hands it to
    /// `IVSLocalStageStream(device: camera, configuration: config)`; a participant here publishes
    /// at most one video stream, so that stream's configuration is the stage's. Read when the
    /// simulation starts.
    public var videoConfiguration = VideoConfiguration()

    /// Set by `StageSimulation.add(_:link:)`.
    weak var simulation: StageSimulation?
    /// The streams the strategy returned when last asked (STR-4): the ones a mute applies to.
    var returnedStreams: [LocalStageStream] = []
    /// The stream objects the renderers were given and still have (`IVSStageStream`).
    var streamObjects = StreamObjects()

    /// STG-1: a stage for the token's participant, as `try IVSStage(token:strategy:)`. Throws
    /// `StageTokenError.malformed` for a token the SDK cannot read (TOK-1, TOK-2). Whether the
    /// token verifies (its signature, its stage) is the stage service's word, reported at join
    /// as a connection error to the renderers (STG-2).
    public init(token: String, strategy: any StageStrategy, sdk: SDKKind = .mobile(SemanticVersion(1, 37, 0))) throws {
        guard let claims = TokenCodec.decodeUnverified(token) else { throw StageTokenError.malformed }
        self.initialToken = token
        self.participantId = claims.participantId
        self.strategy = strategy
        self.sdk = sdk
    }

    /// Adds a renderer (RND-1); adding the same object twice has no effect.
    public func addRenderer(_ renderer: any StageRenderer) {
        guard !renderers.contains(where: { $0 === renderer }) else { return }
        renderers.append(renderer)
    }

    /// Removes a renderer; it gets no further events.
    public func removeRenderer(_ renderer: any StageRenderer) {
        renderers.removeAll { $0 === renderer }
    }

    /// STG-1: joins the stage at the simulation's current virtual time, as `try stage.join()`.
    /// Throws `StageTokenError.expired` when the stage's token has expired on the virtual clock
    /// (`exp <= now`, TOK-1), and `StageSimulationError.stageNotAdded` when the stage was never
    /// added to a simulation; nothing is scheduled then.
    public func join() throws {
        guard let simulation else { throw StageSimulationError.stageNotAdded(participantId: participantId) }
        let nowSeconds = simulation.now.nanoseconds / 1_000_000_000
        if let claims = TokenCodec.decodeUnverified(token), claims.expiresAtSeconds <= nowSeconds {
            throw StageTokenError.expired(participantId: participantId, expiresAtSeconds: claims.expiresAtSeconds, nowSeconds: nowSeconds)
        }
        try simulation.schedule(.join, for: self)
    }

    /// STG-1: leaves the stage; every stream renderers were given is removed first (RND-5).
    /// Does nothing on a stage that is not connected or was never added to a simulation.
    public func leave() {
        try? simulation?.schedule(.leave, for: self)
    }

    /// TOK-4..8: swaps in a new token with no reconnect. The SDK refuses at once a token it
    /// cannot read or one that changes an immutable field (TOK-4), and the stage service refuses
    /// one that does not verify or is not a key-pair token (TOK-3); either refusal reaches the
    /// error delegate and `token` stays the old one. `token` and the capabilities change when the
    /// service has accepted the new token (on a stage that is not connected: at once). Does
    /// nothing on a stage never added to a simulation.
    public func exchangeToken(_ newToken: String) {
        try? simulation?.schedule(.exchangeToken(newToken), for: self)
    }

    /// LST-1: a stream this stage's strategy returned was muted or unmuted; when it is still
    /// among the streams last returned, the stage hears it now, with no refreshStrategy.
    func streamMuteChanged(_ stream: LocalStageStream) {
        guard returnedStreams.contains(where: { $0 === stream }) else { return }
        try? simulation?.schedule(.setMuted(stream.kind, stream.isMuted), for: self)
    }

    /// LST-5: the statistics the seed's `requestRTCStats` on an `IVSStageStream` delivers to its
    /// delegate ("the latest WebRTC statistics for a publishing stream or a subscribing stream"),
    /// returned at once: the `[String: [String: String]]` of the seed's
    /// `stream(_:didGenerateRTCStats:)`, collected at the simulation's current virtual time. `stream` is one this stage publishes (its own participant id) or one its
    /// renderers were given by didAddStreams and still have; nil for any other stream, and on a
    /// stage never added to a simulation.
    public func requestRTCStats(for stream: StageStream) -> [String: [String: String]]? {
        simulation?.world.rtcStats(observer: participantId, participant: stream.participantId, kind: stream.kind)
    }

    /// STR-5: asks the strategy again and applies only what changed. Does nothing on a stage
    /// that is not connected or was never added to a simulation.
    public func refreshStrategy() {
        try? simulation?.schedule(.refreshStrategy, for: self)
    }
}

/// Why the SDK refuses a token before anything reaches the network (TOK-1, STG-1): thrown by
/// `Stage(token:strategy:)` and `join()`, as the seed's `try IVSStage(token:strategy:)` and
/// `try stage.join()`. `code` is the stage error code the service would have answered.
public enum StageTokenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The token is not a readable stage token: not three base64url segments, or a payload
    /// without every TOK-2 claim of the right type.
    case malformed
    /// The token's `exp` is not after the virtual clock's `now`.
    case expired(participantId: String, expiresAtSeconds: UInt64, nowSeconds: UInt64)

    public var code: StageErrorCode {
        switch self {
        case .malformed: .tokenMalformed
        case .expired: .tokenExpired
        }
    }

    public var description: String {
        switch self {
        case .malformed: "TOKEN_MALFORMED: the token cannot be read as a stage token (TOK-2)"
        case .expired(let id, let expiresAt, let now): "TOKEN_EXPIRED: the token of \(id) expired at \(expiresAt) s; the virtual clock is at \(now) s"
        }
    }
}
