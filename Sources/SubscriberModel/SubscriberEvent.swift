/// What an OpenTok app is told about one subscription, named after the SDK callbacks
/// (SUB-1..SUB-5, SUB-8). `streamCreated` / `streamDestroyed` are `OTSessionDelegate`
/// messages, the rest `OTSubscriberKitDelegate` messages.
/// `subscriberVideoLayerChanged` is a model extension (no SDK callback): it reports the layer
/// the Media Router forwards after it changes (SUB-8).
public enum SubscriberEvent: Sendable, Hashable, CustomStringConvertible {
    case streamCreated(OpenTokStream)
    case streamDestroyed(OpenTokStream, reason: StreamDestroyedReason)
    case subscriberDidConnectToStream
    case subscriberDidFailWithError(SubscriberError)
    case subscriberDidDisconnectFromStream
    case subscriberDidReconnectToStream
    case subscriberVideoDisabled(reason: SubscriberVideoEventReason)
    case subscriberVideoEnabled(reason: SubscriberVideoEventReason)
    case subscriberVideoDisableWarning
    case subscriberVideoDisableWarningLifted
    case subscriberVideoLayerChanged(OpenTokStream.Layer?)

    /// The callback name, for traces and violation messages.
    public var name: String {
        switch self {
        case .streamCreated: "streamCreated"
        case .streamDestroyed: "streamDestroyed"
        case .subscriberDidConnectToStream: "subscriberDidConnectToStream"
        case .subscriberDidFailWithError: "subscriberDidFailWithError"
        case .subscriberDidDisconnectFromStream: "subscriberDidDisconnectFromStream"
        case .subscriberDidReconnectToStream: "subscriberDidReconnectToStream"
        case .subscriberVideoDisabled: "subscriberVideoDisabled"
        case .subscriberVideoEnabled: "subscriberVideoEnabled"
        case .subscriberVideoDisableWarning: "subscriberVideoDisableWarning"
        case .subscriberVideoDisableWarningLifted: "subscriberVideoDisableWarningLifted"
        case .subscriberVideoLayerChanged: "subscriberVideoLayerChanged"
        }
    }

    public var description: String {
        switch self {
        case .streamCreated(let stream): "streamCreated(\(stream.streamId))"
        case .streamDestroyed(let stream, let reason): "streamDestroyed(\(stream.streamId), \(reason.rawValue))"
        case .subscriberDidFailWithError(let error): "subscriberDidFailWithError(\(error.code.rawValue))"
        case .subscriberVideoDisabled(let reason): "subscriberVideoDisabled(\(reason.rawValue))"
        case .subscriberVideoEnabled(let reason): "subscriberVideoEnabled(\(reason.rawValue))"
        case .subscriberVideoLayerChanged(let layer): "subscriberVideoLayerChanged(\(layer.map(\.description) ?? "none"))"
        default: name
        }
    }
}

/// Why a subscriber's video was disabled or enabled (SUB-5), spelled as the seed's
/// `OTSubscriberVideoEventReason` constants.
public enum SubscriberVideoEventReason: String, Sendable, Hashable, CaseIterable {
    /// The stream's publisher stopped (or resumed) its video.
    case publisherPropertyChanged
    /// This subscriber's `subscribeToVideo` property changed.
    case subscriberPropertyChanged
    /// The Media Router dropped (or resumed) video for stream quality; routed sessions only.
    case qualityChanged
}

/// Why a stream left the session (SUB-3, SUB-4). The seed's `session:streamDestroyed:` carries
/// no reason; these values are the public OpenTok web SDK's *(ext)*.
/// `networkDisconnected` is what a subscriber that cannot restore a dropped stream reports.
public enum StreamDestroyedReason: String, Sendable, Hashable, CaseIterable {
    case clientDisconnected, forceDisconnected, forceUnpublished, mediaStopped, networkDisconnected
}

/// The error carried by `subscriberDidFailWithError` (SUB-2). Codes are a model *(ext)*
/// grouping of OpenTok's subscriber errors, without their numeric values.
public struct SubscriberError: Error, Sendable, Hashable {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case sessionDisconnected, streamNotFound, streamLimitExceeded, mediaError, timedOut, internalError
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, message: String = "") {
        self.code = code
        self.message = message
    }
}
