import StageCore

/// The host application's strategy, as the SDK's `IVSStageStrategy` (STR-1, STR-3, STR-4): the
/// SDK asks it what the stage should look like and applies the answers itself (STR-2, STR-7).
///
/// The simulation asks these questions while it steps (when the stage connects, when a remote
/// participant joins or publishes, and at every `Stage.refreshStrategy()`), so answers must
/// depend only on the participant and the host's own variables, never on wall-clock time or
/// randomness, for a run to replay from its seed (NET-1).
public protocol StageStrategy: AnyObject {
    /// STR-1: how to subscribe to a remote participant; asked when it joins, and again at each
    /// refreshStrategy. Attribute-based answers are fine (`participant.attributes["role"]`).
    func stage(_ stage: Stage, shouldSubscribeToParticipant participant: ParticipantInfo) -> SubscribeType
    /// STR-3: whether the local participant should publish; asked once connected, and only
    /// when its token allows publishing.
    func stage(_ stage: Stage, shouldPublishParticipant participant: ParticipantInfo) -> Bool
    /// STR-4: the local streams to publish while `shouldPublishParticipant` answers true.
    func stage(_ stage: Stage, streamsToPublishForParticipant participant: ParticipantInfo) -> [LocalStageStream]
}

/// A local audio or video track the strategy returns from `streamsToPublishForParticipant`,
/// as the SDK's `IVSLocalStageStream` (STR-4, LST-1, LST-2).
///
/// Each object is one stream instance: the simulation numbers the objects it is given
/// (1, 2, 3, ... in the order the strategy first returns them, which is deterministic for a
/// deterministic strategy), so returning a *new* object after `refreshStrategy()` is seen as a
/// new instance carrying its own mute state (LST-2).
///
/// Mute (LST-1): `setMuted(_:)` may be called before or after the stream is returned. Before,
/// the state simply travels with the stream when the strategy returns it. After, the change
/// reaches the stage at once, with no `refreshStrategy()`: each stage whose strategy last
/// returned this object gets a `setMuted` host call at the simulation's current virtual time,
/// and remote renderers hear `didChangeMutedStreams` (RND-6).
///
/// Configuration (LST-3, LST-4): a video stream created with `init(device:configuration:)`
/// publishes with that configuration's values as they were when the stream was created (its
/// size, bitrates and frame rate reach subscribers with the publish, its simulcast setting
/// decides the layers sent); one created without publishes with its stage's
/// `videoConfiguration`. A stream with another configuration returned after
/// `refreshStrategy()` republishes.
public final class LocalStageStream {
    /// What the stream carries.
    public let kind: MediaKind
    /// Whether the stream is muted now (as last set on this object).
    public private(set) var isMuted: Bool
    /// The video configuration this stream publishes with; nil for its stage's
    /// `videoConfiguration`, and always for audio.
    public let videoConfiguration: VideoConfiguration?
    /// The stages whose strategies have returned this object (weak: a stream never keeps a
    /// stage alive), in the order they first did.
    private var owners: [WeakStage] = []

    public init(kind: MediaKind, isMuted: Bool = false, videoConfiguration: VideoConfiguration? = nil) {
        self.kind = kind
        self.isMuted = isMuted
        self.videoConfiguration = kind == .video ? videoConfiguration : nil
    }

    /// A stream of what `device` captures, as `IVSLocalStageStream(device: camera)` and
    /// `IVSLocalStageStream(device: camera, configuration: config)`: a camera's stream publishes
    /// with `configuration`'s values as of now (a microphone's ignores it).
    public convenience init(device: any LocalDevice, configuration: IVSLocalStageStreamVideoConfiguration? = nil) {
        self.init(kind: device.mediaKind, videoConfiguration: configuration?.configuration)
    }

    /// Mutes or unmutes this stream (LST-1); a change reaches every stage currently publishing
    /// it at once.
    public func setMuted(_ muted: Bool) {
        guard muted != isMuted else { return }
        isMuted = muted
        for owner in owners { owner.stage?.streamMuteChanged(self) }
    }

    /// A stage's strategy returned this object (STR-4).
    func returned(by stage: Stage) {
        owners.removeAll { $0.stage == nil }
        guard !owners.contains(where: { $0.stage === stage }) else { return }
        owners.append(WeakStage(stage: stage))
    }
}

/// A weak reference to a stage, so a stream never keeps one alive.
private struct WeakStage {
    weak var stage: Stage?
}

/// Numbers `LocalStageStream` objects in first-seen order. It keeps every numbered object
/// alive, so an object identifier is never reused for a different stream while it lives.
final class LocalStreamNumbering {
    private var numbers: [ObjectIdentifier: UInt32] = [:]
    private var seen: [LocalStageStream] = []

    func number(of stream: LocalStageStream) -> UInt32 {
        if let number = numbers[ObjectIdentifier(stream)] { return number }
        seen.append(stream)
        let number = UInt32(seen.count)
        numbers[ObjectIdentifier(stream)] = number
        return number
    }

    func core(_ stream: LocalStageStream) -> LocalStream {
        LocalStream(kind: stream.kind, instance: number(of: stream), isMuted: stream.isMuted, video: stream.videoConfiguration)
    }
}

/// Adapts a user's `StageStrategy` object to the core's `StrategyAnswers`, which the world's
/// clients ask during a step (`World.apply(_:host:)`).
struct StrategyAdapter: StrategyAnswers {
    let stage: Stage
    let numbering: LocalStreamNumbering

    func shouldSubscribe(to participant: ParticipantInfo) -> SubscribeType {
        stage.strategy.stage(stage, shouldSubscribeToParticipant: participant)
    }

    func shouldPublish(_ participant: ParticipantInfo) -> Bool {
        stage.strategy.stage(stage, shouldPublishParticipant: participant)
    }

    func streamsToPublish(for participant: ParticipantInfo) -> [LocalStream] {
        let streams = stage.strategy.stage(stage, streamsToPublishForParticipant: participant)
        stage.returnedStreams = streams
        for stream in streams { stream.returned(by: stage) }
        return streams.map(numbering.core)
    }
}
