/// Where one OpenTok subscription is in its lifecycle (SUB-2..SUB-4).
/// `failed`, `unsubscribed` and `streamDestroyed` are terminal: every later input is ignored.
public enum SubscriberPhase: String, Sendable, Hashable, CaseIterable {
    /// The subscriber object exists for a stream; `subscribe` not called yet.
    case idle
    /// `subscribe` called, waiting for media (SUB-2).
    case subscribing
    /// Media flows; `subscriberDidConnectToStream` (or a reconnect) was sent.
    case connected
    /// Media dropped; `subscriberDidDisconnectFromStream` was sent, reconnecting (SUB-4).
    case reconnecting
    /// `subscriberDidFailWithError` was sent (SUB-2).
    case failed
    /// The app unsubscribed (SUB-3).
    case unsubscribed
    /// `streamDestroyed` was sent (SUB-3, SUB-4).
    case streamDestroyed

    public var isTerminal: Bool {
        switch self {
        case .failed, .unsubscribed, .streamDestroyed: true
        case .idle, .subscribing, .connected, .reconnecting: false
        }
    }
}
