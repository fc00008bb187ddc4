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
    /// The participant token (a signed JWT, TOK-2) as the app passed it; exchangeToken replaces it.
    public private(set) var token: String
    /// The local participant's id: the token's `jti`, read once when the stage is created
    /// (`unreadable-token` when the token cannot be read; joining then fails with TOKEN_MALFORMED).
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
    public var onReceiveSignaling: ((SignalingMessage) -> Void)?
    /// The receiving end of this stage's signaling: both handler levels, and the protocol log.
    public internal(set) var signaling = SignalingEndpoint()

    /// Set by `StageSimulation.add(_:link:)`.
    weak var simulation: StageSimulation?
    /// The streams the strategy returned when last asked (STR-4): the ones a mute applies to.
    var returnedStreams: [LocalStageStream] = []

    /// STG-1: a stage for the token's participant. The token is checked when the stage joins
    /// (TOK-1): a bad token is reported as a connection error to the renderers, not thrown here.
    public init(token: String, strategy: any StageStrategy, sdk: SDKKind = .mobile(SemanticVersion(1, 37, 0))) {
        self.token = token
        self.participantId = TokenCodec.decodeUnverified(token)?.participantId ?? "unreadable-token"
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

    /// STG-1: joins the stage at the simulation's current virtual time. Throws
    /// `StageSimulationError.stageNotAdded` when the stage was never added to a simulation.
    public func join() throws {
        guard let simulation else { throw StageSimulationError.stageNotAdded(participantId: participantId) }
        try simulation.schedule(.join, for: self)
    }

    /// STG-1: leaves the stage; every stream renderers were given is removed first (RND-5).
    /// Does nothing on a stage that is not connected or was never added to a simulation.
    public func leave() {
        try? simulation?.schedule(.leave, for: self)
    }

    /// TOK-4..8: swaps in a new token with no reconnect. A token that changes an immutable field
    /// is refused at once and reported to the error delegate; capability changes apply when the
    /// stage service has verified it.
    public func exchangeToken(_ newToken: String) {
        token = newToken
        try? simulation?.schedule(.exchangeToken(newToken), for: self)
    }

    /// LST-1: a stream this stage's strategy returned was muted or unmuted; when it is still
    /// among the streams last returned, the stage hears it now, with no refreshStrategy.
    func streamMuteChanged(_ stream: LocalStageStream) {
        guard returnedStreams.contains(where: { $0 === stream }) else { return }
        try? simulation?.schedule(.setMuted(stream.kind, stream.isMuted), for: self)
    }

    /// STR-5: asks the strategy again and applies only what changed. Does nothing on a stage
    /// that is not connected or was never added to a simulation.
    public func refreshStrategy() {
        try? simulation?.schedule(.refreshStrategy, for: self)
    }
}
