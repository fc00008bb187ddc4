// The SDK-shaped entry points: each is `apply(_:)` with one `SubscriberInput`, returning the
// events; why an input was ignored is left in `lastIgnored`.
extension SubscriberState {
    /// SUB-2: `[OTSession subscribe:error:]`.
    @discardableResult
    public mutating func subscribe(at: UInt64) -> [SubscriberEvent] { apply(.subscribe(at: at)).events }

    /// SUB-2: the attempt failed -> `subscriberDidFailWithError`.
    @discardableResult
    public mutating func subscribeFailed(_ error: SubscriberError) -> [SubscriberEvent] { apply(.subscribeFailed(error)).events }

    /// SUB-2: media started -> `subscriberDidConnectToStream`.
    @discardableResult
    public mutating func mediaStarted(at: UInt64) -> [SubscriberEvent] { apply(.mediaStarted(at: at)).events }

    /// SUB-3: `[OTSession unsubscribe:error:]`; sends nothing, ends the subscription.
    @discardableResult
    public mutating func unsubscribe() -> [SubscriberEvent] { apply(.unsubscribe).events }

    /// SUB-3: the stream left the session -> `streamDestroyed`.
    @discardableResult
    public mutating func streamDestroyed(_ reason: StreamDestroyedReason) -> [SubscriberEvent] { apply(.streamDestroyed(reason)).events }

    /// SUB-4: media dropped -> `subscriberDidDisconnectFromStream`.
    @discardableResult
    public mutating func mediaDropped(at: UInt64) -> [SubscriberEvent] { apply(.mediaDropped(at: at)).events }

    /// SUB-4: media back -> `subscriberDidReconnectToStream`.
    @discardableResult
    public mutating func mediaRestored(at: UInt64) -> [SubscriberEvent] { apply(.mediaRestored(at: at)).events }

    /// SUB-4: cannot restore -> `streamDestroyed(networkDisconnected)`.
    @discardableResult
    public mutating func restoreFailed() -> [SubscriberEvent] { apply(.restoreFailed).events }

    /// SUB-5: publisher video off / on -> video disabled / enabled (publisherPropertyChanged).
    @discardableResult
    public mutating func publisherVideoChanged(enabled: Bool) -> [SubscriberEvent] { apply(.publisherVideoChanged(enabled: enabled)).events }

    /// SUB-7: the publisher's audio goes off or on (a mute, or a publish without audio): the
    /// stream's `hasAudio` follows; no subscriber event reports it.
    public mutating func publisherAudioChanged(enabled: Bool) { stream.hasAudio = enabled }

    /// SUB-7, SUB-8: the publisher published its video again with other settings (LST-3: a
    /// stream with its own configuration); `videoDimensions`, "the current dimensions of the
    /// video media track on this stream", follow untold, and a stream with video layers takes
    /// the new ones (LST-4: another size, frame rate or simulcast): the layer received is told
    /// again if it changed.
    @discardableResult
    public mutating func publisherVideoResized(to dimensions: OpenTokStream.VideoDimensions, layers: [OpenTokStream.Layer]) -> [SubscriberEvent] {
        stream.videoDimensions = dimensions
        if !stream.layers.isEmpty { stream.layers = layers }
        return announcePending()
    }

    /// SUB-5: `subscribeToVideo` -> video disabled / enabled (subscriberPropertyChanged).
    @discardableResult
    public mutating func setSubscribeToVideo(_ enabled: Bool) -> [SubscriberEvent] { apply(.setSubscribeToVideo(enabled)).events }

    /// SUB-5, SUB-6, SUB-8: one measured link sample.
    @discardableResult
    public mutating func linkQuality(bandwidthBitsPerSecond: UInt64, lossRatio: Double, at: UInt64) -> [SubscriberEvent] {
        apply(.linkQuality(bandwidthBitsPerSecond: bandwidthBitsPerSecond, lossRatio: lossRatio, at: at)).events
    }

    /// SUB-8: `preferredResolution`; (0, 0) clears.
    @discardableResult
    public mutating func setPreferredResolution(width: Int, height: Int) -> [SubscriberEvent] {
        apply(.setPreferredResolution(width: width, height: height)).events
    }

    /// SUB-8: `preferredFrameRate`; 0 clears.
    @discardableResult
    public mutating func setPreferredFrameRate(_ framesPerSecond: Double) -> [SubscriberEvent] {
        apply(.setPreferredFrameRate(framesPerSecond)).events
    }
}
