/// The ping/pong keepalive rule as a pure value (SIG-6): whoever pings expects a pong; a ping
/// left unanswered for more than `timeout` means the connection is dropped.
///
/// Times are nanoseconds on the caller's clock. Both durations are *(assumed)*: Sora does not
/// document them to the SDK, so they are parameters with defaults `interval` 5 s and
/// `timeout` 10 s. A pong arriving exactly at `sent + timeout` is still in time.
public struct KeepaliveTimer: Hashable, Sendable {
    /// *(assumed)* default time between pings: 5 s.
    public static let defaultInterval: UInt64 = 5_000_000_000
    /// *(assumed)* default time a ping may stay unanswered: 10 s.
    public static let defaultTimeout: UInt64 = 10_000_000_000

    /// Time between pings.
    public let interval: UInt64
    /// How long a ping may stay unanswered.
    public let timeout: UInt64
    /// When the oldest unanswered ping was sent; `nil` when every ping was answered.
    public private(set) var outstandingPingSentAt: UInt64?
    /// When the latest ping was sent.
    public private(set) var lastPingSentAt: UInt64?
    /// When the latest pong arrived.
    public private(set) var lastPongAt: UInt64?

    public init(interval: UInt64 = KeepaliveTimer.defaultInterval, timeout: UInt64 = KeepaliveTimer.defaultTimeout) {
        self.interval = interval
        self.timeout = timeout
    }

    /// A ping went out; the oldest unanswered ping keeps governing the deadline.
    public mutating func pingSent(at now: UInt64) {
        if outstandingPingSentAt == nil { outstandingPingSentAt = now }
        lastPingSentAt = now
    }

    /// A pong came back: every outstanding ping counts as answered.
    public mutating func pongReceived(at now: UInt64) {
        outstandingPingSentAt = nil
        lastPongAt = now
    }

    /// The instant after which an unanswered ping drops the connection.
    public var deadline: UInt64? {
        outstandingPingSentAt.map { $0.addingReportingOverflow(timeout).overflow ? UInt64.max : $0 + timeout }
    }

    /// True when a ping has gone unanswered for more than `timeout` at `now`.
    public func isExpired(at now: UInt64) -> Bool {
        guard let deadline else { return false }
        return now > deadline
    }

    /// True when the next ping is due: `interval` after the last one (or right away if none).
    public func isPingDue(at now: UInt64) -> Bool {
        guard let last = lastPingSentAt else { return true }
        return now >= last && now - last >= interval
    }
}
