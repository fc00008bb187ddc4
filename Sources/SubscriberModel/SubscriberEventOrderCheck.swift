/// A pure checker of OpenTok subscriber event order (SUB-2..SUB-6): feed it
/// `(subscriptionId, SubscriberEvent)` in the order the app saw them and it returns the
/// violations each event causes, as strings that start with the rule ID.
///
/// Rules, per subscription:
/// - SUB-2: at most one `subscriberDidConnectToStream`, never after `subscriberDidFailWithError`.
/// - SUB-4: disconnect / reconnect only after a connect; a reconnect only while a disconnect
///   is open, so at most one per disconnect; no second disconnect while one is open; a
///   disconnect is closed by exactly one of reconnect or `streamDestroyed`, never both.
/// - SUB-3 / SUB-4: nothing after `streamDestroyed`.
/// - SUB-5: `subscriberVideoEnabled(r)` only while a `subscriberVideoDisabled(r)` is open, no
///   second `subscriberVideoDisabled(r)` while one is open; `qualityChanged` disable only
///   after an open `subscriberVideoDisableWarning` and never in a relayed session (when
///   `begin` gave the mode); a warning is lifted only while open, never sent twice while open.
/// - RND-4 + SUB-5: while a `subscriberVideoDisabled(subscriberPropertyChanged)` is open (the
///   subscriber asks for no video), no layer change, quality warning or `qualityChanged` event.
/// - SUB-6: no `qualityChanged` disable when the stream's `audioFallbackEnabled` is false. The
///   stream is learnt from `begin`, or from a `streamCreated` / `streamDestroyed` event.
///
/// A disconnect still open when the trace ends is not a violation by itself (the run may end
/// mid-reconnect); `openDisconnects` lists them for callers that want it.
public struct SubscriberEventOrderCheck: Sendable {
    struct Track: Sendable {
        var stream: OpenTokStream?
        var mode: OpenTokMediaMode?
        var connected = false
        var failed = false
        var disconnectOpen = false
        var destroyed = false
        var warned = false
        var disabled: Set<SubscriberVideoEventReason> = []
    }

    var tracks: [String: Track] = [:]
    private var eventCount = 0
    /// Every violation found so far, in order.
    public private(set) var violations: [String] = []

    public init() {}

    /// Tells the checker which stream (and optionally which session mode) a subscription is for.
    public mutating func begin(subscriptionId: String, stream: OpenTokStream, mode: OpenTokMediaMode? = nil) {
        tracks[subscriptionId, default: Track()].stream = stream
        if let mode { tracks[subscriptionId, default: Track()].mode = mode }
    }

    /// Whether `subscriptionId`'s last disconnect is still unresolved.
    public func hasOpenDisconnect(_ subscriptionId: String) -> Bool {
        tracks[subscriptionId]?.disconnectOpen == true
    }

    /// Subscription ids whose last disconnect is still unresolved, sorted.
    public var openDisconnects: [String] {
        tracks.filter { $0.value.disconnectOpen }.map(\.key).sorted()
    }

    /// Checks one event; returns the violations it causes (also appended to `violations`).
    @discardableResult
    public mutating func observe(_ subscriptionId: String, _ event: SubscriberEvent) -> [String] {
        eventCount += 1
        var track = tracks[subscriptionId] ?? Track()
        var found: [String] = []
        func flag(_ rule: String, _ text: String) {
            found.append("\(rule) [subscription \(subscriptionId), event #\(eventCount) \(event)]: \(text)")
        }

        if track.destroyed {
            flag(event == .subscriberDidReconnectToStream ? "SUB-4" : "SUB-3",
                 "\(event.name) after streamDestroyed")
        } else {
            check(event, &track, flag)
        }
        tracks[subscriptionId] = track
        violations += found
        return found
    }

    private func check(_ event: SubscriberEvent, _ track: inout Track, _ flag: (String, String) -> Void) {
        if track.disabled.contains(.subscriberPropertyChanged), Self.isVideoReport(event) {
            flag("SUB-5", "\(event) while the subscriber does not subscribe to video")
        }
        switch event {
        case .streamCreated(let stream):
            if track.stream == nil { track.stream = stream }
        case .streamDestroyed(let stream, _):
            if track.stream == nil { track.stream = stream }
            track.destroyed = true
            track.disconnectOpen = false
        case .subscriberDidConnectToStream:
            if track.failed { flag("SUB-2", "connect after subscriberDidFailWithError") }
            if track.connected { flag("SUB-2", "second subscriberDidConnectToStream (a restored stream sends subscriberDidReconnectToStream)") }
            track.connected = true
        case .subscriberDidFailWithError:
            track.failed = true
        case .subscriberDidDisconnectFromStream:
            if !track.connected { flag("SUB-4", "disconnect before subscriberDidConnectToStream") }
            if track.disconnectOpen { flag("SUB-4", "second disconnect while the previous one is unresolved") }
            track.disconnectOpen = true
        case .subscriberDidReconnectToStream:
            if !track.connected { flag("SUB-4", "reconnect before subscriberDidConnectToStream") }
            if !track.disconnectOpen {
                flag("SUB-4", "reconnect without an open subscriberDidDisconnectFromStream (none, or already reconnected)")
            }
            track.disconnectOpen = false
        case .subscriberVideoDisabled(let reason):
            if track.disabled.contains(reason) {
                flag("SUB-5", "subscriberVideoDisabled(\(reason.rawValue)) again without subscriberVideoEnabled(\(reason.rawValue))")
            }
            if reason == .qualityChanged {
                if track.stream?.audioFallbackEnabled == false {
                    flag("SUB-6", "qualityChanged disable for a publisher with audioFallbackEnabled = false")
                }
                if track.mode == .relayed {
                    flag("SUB-5", "qualityChanged disable in a relayed session")
                }
                if !track.warned {
                    flag("SUB-5", "qualityChanged disable without a prior subscriberVideoDisableWarning")
                }
                track.warned = false
            }
            track.disabled.insert(reason)
        case .subscriberVideoEnabled(let reason):
            if !track.disabled.contains(reason) {
                flag("SUB-5", "subscriberVideoEnabled(\(reason.rawValue)) without an open subscriberVideoDisabled(\(reason.rawValue))")
            }
            track.disabled.remove(reason)
        case .subscriberVideoDisableWarning:
            if track.warned { flag("SUB-5", "second subscriberVideoDisableWarning while one is open") }
            track.warned = true
        case .subscriberVideoDisableWarningLifted:
            if !track.warned { flag("SUB-5", "subscriberVideoDisableWarningLifted without an open warning") }
            track.warned = false
        case .subscriberVideoLayerChanged:
            break
        }
    }

    /// Events about video the subscriber receives: its layer and the quality fallback.
    public static func isVideoReport(_ event: SubscriberEvent) -> Bool {
        switch event {
        case .subscriberVideoLayerChanged, .subscriberVideoDisableWarning, .subscriberVideoDisableWarningLifted,
             .subscriberVideoDisabled(.qualityChanged), .subscriberVideoEnabled(.qualityChanged):
            true
        default:
            false
        }
    }
}
