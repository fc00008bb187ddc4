/// One OpenTok subscription as a pure value-typed state machine (SUB-2..SUB-6, SUB-8).
///
/// Inputs carry virtual times and measured link figures; outputs are the SDK's callbacks as
/// `SubscriberEvent`s. Nothing traps: an input that makes no sense in the current phase (or
/// whose time runs backwards) changes nothing and is reported in `SubscriberStep.ignored`
/// (also kept in `lastIgnored` by the shorthand methods).
///
/// Video events are only delivered while media flows (`connected`): a video change made while
/// subscribing or reconnecting is announced right after the connect / reconnect callback.
/// Each disabling cause (publisher, subscriber, quality) is announced on its own, so every
/// `subscriberVideoEnabled(r)` follows a `subscriberVideoDisabled(r)` *(assumed: the seed
/// does not say what overlapping causes send)*. A stream without video at connect time gets
/// `subscriberVideoDisabled(publisherPropertyChanged)` after `subscriberDidConnectToStream`.
public struct SubscriberState: Sendable, Hashable {
    /// The subscribed stream; `hasVideo` follows the publisher (SUB-5).
    public internal(set) var stream: OpenTokStream
    /// The session's media mode: only `routed` does quality fallback and layer selection.
    public let mode: OpenTokMediaMode
    /// Quality-fallback thresholds (SUB-5, SUB-6), all *(assumed)* defaults.
    public let policy: QualityPolicy

    public internal(set) var phase: SubscriberPhase = .idle
    /// `OTSubscriberKit.subscribeToVideo` (SUB-5).
    public internal(set) var subscribeToVideo: Bool
    /// `preferredResolution` / `preferredFrameRate` (SUB-8).
    public internal(set) var preferences: LayerPreferences
    /// The last measured link bandwidth, if any (SUB-8).
    public internal(set) var bandwidthBitsPerSecond: UInt64?
    /// The Media Router's quality-fallback stage (SUB-5, SUB-6).
    public internal(set) var quality = QualityFallback()

    public internal(set) var subscribedAt: UInt64?
    public internal(set) var connectedAt: UInt64?
    public internal(set) var disconnectedAt: UInt64?
    /// The latest time any accepted input carried; timed inputs before it are ignored.
    public internal(set) var lastTime: UInt64?
    /// Why the most recent input was ignored, or nil if it was accepted.
    public internal(set) var lastIgnored: String?

    /// Video-disable reasons the app has been told about (and not yet told were lifted).
    public internal(set) var announcedVideoDisabled: Set<SubscriberVideoEventReason> = []
    /// The layer last reported with `subscriberVideoLayerChanged`.
    public internal(set) var announcedLayer: OpenTokStream.Layer?

    public init(
        stream: OpenTokStream,
        mode: OpenTokMediaMode = .routed,
        policy: QualityPolicy = .default,
        subscribeToVideo: Bool = true,
        preferences: LayerPreferences = LayerPreferences()
    ) {
        self.stream = stream
        self.mode = mode
        self.policy = policy
        self.subscribeToVideo = subscribeToVideo
        self.preferences = preferences
    }

    /// Whether quality fallback can ever act here: routed mode and a publisher with
    /// `audioFallbackEnabled` (SUB-5, SUB-6).
    public var qualityFallbackApplies: Bool { mode == .routed && stream.audioFallbackEnabled }

    /// The reasons video is currently disabled for, in `SubscriberVideoEventReason` order.
    public var videoDisabledReasons: [SubscriberVideoEventReason] {
        SubscriberVideoEventReason.allCases.filter(isVideoDisabled(by:))
    }

    /// Whether `reason` disables video now (one of `videoDisabledReasons`).
    func isVideoDisabled(by reason: SubscriberVideoEventReason) -> Bool {
        switch reason {
        case .publisherPropertyChanged: !stream.hasVideo
        case .subscriberPropertyChanged: !subscribeToVideo
        case .qualityChanged: quality.isDisabled
        }
    }

    /// Video is received: media flows and nothing disables it.
    public var isVideoReceived: Bool { phase == .connected && videoDisabledReasons.isEmpty }
    /// Audio is received whenever media flows, whatever happened to video (SUB-5).
    public var isAudioReceived: Bool { phase == .connected && stream.hasAudio }

    /// The layer the subscriber gets while its video flows (SUB-8); nil for a stream without
    /// layers. Routed: `LayerSelection.choose` with the preferences and last bandwidth.
    /// Relayed: there is no Media Router to pick, so the publisher's largest layer.
    public var receivedLayer: OpenTokStream.Layer? {
        switch mode {
        case .routed:
            LayerSelection.choose(from: stream.layers, preferences: preferences, bandwidthBitsPerSecond: bandwidthBitsPerSecond)
        case .relayed:
            LayerSelection.largest(of: stream.layers)
        }
    }

    /// The bitrate the link must carry for the lowest video layer (SUB-5 quality fallback).
    public var lowestLayerBitsPerSecond: UInt64 {
        LayerSelection.cheapest(of: stream.layers)?.bitsPerSecond ?? policy.minimumVideoBitsPerSecond
    }

    /// Applies one input; returns its events, or why it was ignored.
    @discardableResult
    public mutating func apply(_ input: SubscriberInput) -> SubscriberStep {
        let result = transition(input)
        lastIgnored = result.ignored
        return result
    }

    private mutating func transition(_ input: SubscriberInput) -> SubscriberStep {
        if phase.isTerminal {
            return .ignoring("\(Self.name(of: input)) ignored: the subscription is over (\(phase.rawValue))")
        }
        if let at = Self.time(of: input), let last = lastTime, at < last {
            return .ignoring("\(Self.name(of: input)) ignored: time \(at) ns is before \(last) ns")
        }
        let result: SubscriberStep
        switch input {
        case .subscribe(let at): result = subscribeStep(at: at)
        case .subscribeFailed(let error): result = subscribeFailedStep(error)
        case .mediaStarted(let at): result = mediaStartedStep(at: at)
        case .unsubscribe: result = unsubscribeStep()
        case .streamDestroyed(let reason): result = streamDestroyedStep(reason)
        case .mediaDropped(let at): result = mediaDroppedStep(at: at)
        case .mediaRestored(let at): result = mediaRestoredStep(at: at)
        case .restoreFailed: result = restoreFailedStep()
        case .publisherVideoChanged(let enabled): result = publisherVideoStep(enabled: enabled)
        case .setSubscribeToVideo(let enabled): result = subscribeToVideoStep(enabled)
        case .linkQuality(let bandwidth, let loss, let at): result = linkQualityStep(bandwidth: bandwidth, loss: loss, at: at)
        case .setPreferredResolution(let width, let height): result = preferredResolutionStep(width: width, height: height)
        case .setPreferredFrameRate(let fps): result = preferredFrameRateStep(fps)
        }
        if result.ignored == nil, let at = Self.time(of: input) {
            lastTime = at
        }
        return result
    }

    static func time(of input: SubscriberInput) -> UInt64? {
        switch input {
        case .subscribe(let at), .mediaStarted(let at), .mediaDropped(let at), .mediaRestored(let at):
            at
        case .linkQuality(_, _, let at):
            at
        default:
            nil
        }
    }

    static func name(of input: SubscriberInput) -> String {
        switch input {
        case .subscribe: "subscribe"
        case .subscribeFailed: "subscribeFailed"
        case .mediaStarted: "mediaStarted"
        case .unsubscribe: "unsubscribe"
        case .streamDestroyed: "streamDestroyed"
        case .mediaDropped: "mediaDropped"
        case .mediaRestored: "mediaRestored"
        case .restoreFailed: "restoreFailed"
        case .publisherVideoChanged: "publisherVideoChanged"
        case .setSubscribeToVideo: "setSubscribeToVideo"
        case .linkQuality: "linkQuality"
        case .setPreferredResolution: "setPreferredResolution"
        case .setPreferredFrameRate: "setPreferredFrameRate"
        }
    }

    func ignoredInPhase(_ input: String, expected: String) -> SubscriberStep {
        .ignoring("\(input) ignored in phase \(phase.rawValue): only \(expected)")
    }
}
