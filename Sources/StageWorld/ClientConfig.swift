import Simulation
import StageCore
import SubscriberModel

/// What one SDK instance is declared with and keeps for the whole run: its name, SDK kind,
/// starting token and strategy, video and policies. The scenario loader, the fuzz generator's
/// drafts and the Swift API's `StageSimulation` all build this one type; a `Client` holds it
/// shared, and what changes during the run (token, strategy, view, connection) is the
/// client's own state.
public struct ClientConfig: Hashable, Sendable {
    /// The name scenarios and traces use for this SDK instance (the token's `jti`).
    public var name: String
    public var sdk: SDKKind
    /// The participant token the app passes at start (TOK-1); exchangeToken replaces the
    /// client's current token, never this one (TOK-4).
    public var token: TokenSource
    /// The strategy the client starts with; setStrategy and mutes change the client's own
    /// copy (STR-1, LST-1).
    public var strategy: StrategySpec
    /// The configuration of the video this client publishes (LST-3, LST-4).
    public var video: VideoConfiguration
    /// How an unanswered join is retried before FAILED (STG-3).
    public var joinRetry: JoinRetryPolicy
    /// Layout rules when this client is a server-side composition (TOK-9).
    public var composition: CompositionOptions
    /// How a lost connection is retried (NET-3).
    public var reconnect: ReconnectPolicy
    /// Routed (quality fallback possible) or relayed media for this client's subscribers (SUB-5).
    public var mediaMode: OpenTokMediaMode
    /// What this client sends with `connect` besides its token (SIG-2).
    public var connectMetadata: ConnectMetadata
    /// Publisher settings its subscribers see (SUB-6, SUB-7).
    public var audioFallbackEnabled: Bool
    public var videoType: OpenTokStream.VideoType

    /// A client with these essentials and every other setting at the scenario loader's default.
    public init(
        name: String, sdk: SDKKind = .mobile(SemanticVersion(1, 37, 0)), token: TokenSource, strategy: StrategySpec = StrategySpec(),
        video: VideoConfiguration = VideoConfiguration(), joinRetry: JoinRetryPolicy = JoinRetryPolicy(),
        composition: CompositionOptions = CompositionOptions(), reconnect: ReconnectPolicy = ReconnectPolicy(),
        mediaMode: OpenTokMediaMode = .routed, connectMetadata: ConnectMetadata = ConnectMetadata(),
        audioFallbackEnabled: Bool = true, videoType: OpenTokStream.VideoType = .camera
    ) {
        self.name = name
        self.sdk = sdk
        self.token = token
        self.strategy = strategy
        self.video = video
        self.joinRetry = joinRetry
        self.composition = composition
        self.reconnect = reconnect
        self.mediaMode = mediaMode
        self.connectMetadata = connectMetadata
        self.audioFallbackEnabled = audioFallbackEnabled
        self.videoType = videoType
    }

    /// The token the client starts with: declared claims signed now, or the raw text.
    public var initialToken: String { StageKeys.standard.token(token) }
}

extension ClientConfig {
    /// Every setting, for the configuration's fingerprint; the starting token by its claims and
    /// verdict under `keyRing` (`writeToken`: any valid signature of the same claims is the same token to the model).
    func encode(to writer: inout CanonicalWriter, keyRing: TokenKeyRing) {
        writer.write(name)
        sdk.encode(to: &writer)
        writer.writeToken(initialToken, keyRing: keyRing)
        strategy.encode(to: &writer)
        video.encode(to: &writer)
        joinRetry.encode(to: &writer)
        composition.encode(to: &writer)
        reconnect.encode(to: &writer)
        writer.writeCase(mediaMode)
        connectMetadata.encode(to: &writer)
        writer.write(audioFallbackEnabled)
        writer.writeCase(videoType)
    }
}
