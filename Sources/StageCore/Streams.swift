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
/// the LocalStageStream instance (LST-2: a new instance applies its own mute state) and its mute.
public struct LocalStream: Hashable, Sendable, CustomStringConvertible {
    public var kind: MediaKind
    public var instance: UInt32
    public var isMuted: Bool

    public init(kind: MediaKind, instance: UInt32 = 0, isMuted: Bool = false) {
        self.kind = kind
        self.instance = instance
        self.isMuted = isMuted
    }

    public var description: String { "\(kind.rawValue)#\(instance)\(isMuted ? "(muted)" : "")" }
}
