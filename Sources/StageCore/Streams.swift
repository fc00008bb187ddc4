/// A stream as renderers see it: whose it is, what it carries, whether it is muted (RND-5, RND-6).
public struct StageStream: Hashable, Sendable, CustomStringConvertible {
    public var participantId: String
    public var kind: MediaKind
    public var isMuted: Bool

    public init(participantId: String, kind: MediaKind, isMuted: Bool = false) {
        self.participantId = participantId
        self.kind = kind
        self.isMuted = isMuted
    }

    public var description: String { isMuted ? "\(kind.rawValue)(muted)" : kind.rawValue }
}

/// A local stream the strategy returns from streamsToPublish (STR-4): its kind, the identity of
/// the LocalStageStream instance (LST-2: a new instance applies its own mute state), its mute,
/// and, for a video stream created with one, its own video configuration (LST-3, LST-4).
public struct LocalStream: Hashable, Sendable, CustomStringConvertible {
    public var kind: MediaKind
    public var instance: UInt32
    public var isMuted: Bool
    /// The configuration this video stream publishes with, as the seed's
    /// `IVSLocalStageStream(device: camera, configuration: config)`; nil for the participant's
    /// configured video (its `ClientConfig.video`) and for audio.
    public var video: VideoConfiguration?

    public init(kind: MediaKind, instance: UInt32 = 0, isMuted: Bool = false, video: VideoConfiguration? = nil) {
        self.kind = kind
        self.instance = instance
        self.isMuted = isMuted
        self.video = kind == .video ? video : nil
    }

    public var description: String { "\(kind.rawValue)#\(instance)\(isMuted ? "(muted)" : "")" }
}
