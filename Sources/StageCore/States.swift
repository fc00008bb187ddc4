/// The stage connection state the SDK reports to renderers (STG-2; `errored` is the web SDK's, ext).
public enum ConnectionState: String, Hashable, Sendable, CaseIterable {
    case disconnected, connecting, connected, errored
}

/// The local participant's publish state (RND-1; `errored` is ext).
public enum PublishState: String, Hashable, Sendable, CaseIterable {
    case notPublished, attemptingPublish, published, errored
}

/// The state of one subscription to a remote participant (RND-1; `errored` is ext).
public enum SubscribeState: String, Hashable, Sendable, CaseIterable {
    case notSubscribed, attemptingSubscribe, subscribed, errored
}

/// A strategy's answer to shouldSubscribeToParticipant (STR-1).
public enum SubscribeType: String, Hashable, Sendable, CaseIterable {
    case none, audioOnly, audioVideo

    /// The media kinds a subscription of this type receives (RND-4: never video under audioOnly).
    public var mediaKinds: [MediaKind] {
        switch self {
        case .none: []
        case .audioOnly: [.audio]
        case .audioVideo: [.audio, .video]
        }
    }

    public func allows(_ kind: MediaKind) -> Bool {
        switch self {
        case .none: false
        case .audioOnly: kind == .audio
        case .audioVideo: true
        }
    }
}

/// The kind of media a stage stream carries.
public enum MediaKind: String, Hashable, Sendable, CaseIterable, Comparable {
    case audio, video

    public static func < (lhs: MediaKind, rhs: MediaKind) -> Bool { lhs == .audio && rhs == .video }
}
