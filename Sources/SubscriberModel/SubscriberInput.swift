/// One input to a `SubscriberState` (SUB-2..SUB-6, SUB-8): an app call, a media-path
/// observation or a measured link figure. Times are virtual nanoseconds; nothing here reads a
/// clock. Each mutating method of `SubscriberState` is shorthand for `apply(_:)` with one of these.
public enum SubscriberInput: Sendable, Hashable {
    /// App calls `[OTSession subscribe:error:]` (SUB-2).
    case subscribe(at: UInt64)
    /// The subscribe attempt failed before media started (SUB-2).
    case subscribeFailed(SubscriberError)
    /// The first media arrived (SUB-2).
    case mediaStarted(at: UInt64)
    /// App calls `[OTSession unsubscribe:error:]` (SUB-3).
    case unsubscribe
    /// The stream left the session (SUB-3).
    case streamDestroyed(StreamDestroyedReason)
    /// The subscriber's media connection dropped; it starts reconnecting by itself (SUB-4).
    case mediaDropped(at: UInt64)
    /// The dropped media connection came back (SUB-4).
    case mediaRestored(at: UInt64)
    /// The dropped media connection cannot be restored (SUB-4).
    case restoreFailed
    /// The publisher turned its video off or on (SUB-5 `publisherPropertyChanged`).
    case publisherVideoChanged(enabled: Bool)
    /// App sets `subscribeToVideo` (SUB-5 `subscriberPropertyChanged`).
    case setSubscribeToVideo(Bool)
    /// A measured sample of the subscriber's link (SUB-5 `qualityChanged`, SUB-6, SUB-8).
    case linkQuality(bandwidthBitsPerSecond: UInt64, lossRatio: Double, at: UInt64)
    /// App sets `preferredResolution`; (0, 0) clears it (SUB-8).
    case setPreferredResolution(width: Int, height: Int)
    /// App sets `preferredFrameRate`; 0 clears it (SUB-8).
    case setPreferredFrameRate(Double)
}

/// What one input did to a `SubscriberState`: the events it caused, in order, or why it was
/// ignored (an input that makes no sense in the current state is reported, never trapped).
public struct SubscriberStep: Sendable, Hashable {
    public var events: [SubscriberEvent]
    public var ignored: String?

    public init(events: [SubscriberEvent] = [], ignored: String? = nil) {
        self.events = events
        self.ignored = ignored
    }

    static func ignoring(_ why: String) -> SubscriberStep { SubscriberStep(ignored: why) }
}
