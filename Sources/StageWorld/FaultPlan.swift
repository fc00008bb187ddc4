import Simulation

/// Which directions of a link a partition cuts.
public enum PartitionDirection: String, Hashable, Sendable, CaseIterable {
    /// Both ways: a full partition.
    case both
    /// Client -> service only (one-way).
    case uplink
    /// Service -> client only (one-way).
    case downlink

    func cuts(uplink: Bool) -> Bool {
        switch self {
        case .both: true
        case .uplink: uplink
        case .downlink: !uplink
        }
    }
}

/// One scheduled cut of the network (NET-2): a partition of one client's link, or an outage of
/// the stage service (every link), from `start` until `end`. Every transmission attempt in a
/// cut direction fails; the sender keeps retrying with backoff, so a short cut is delay and a
/// long one is detected by keepalive (SIG-6) and ends the connection (NET-3).
public struct Partition: Hashable, Sendable {
    /// The client whose link is cut; nil cuts every link (a service outage).
    public var clientName: String?
    public var direction: PartitionDirection
    public var start: VirtualTime
    public var end: VirtualTime

    public init(clientName: String?, direction: PartitionDirection, start: VirtualTime, end: VirtualTime) {
        self.clientName = clientName
        self.direction = direction
        self.start = start
        self.end = end
    }

    public var summary: String {
        "\(clientName.map { "partition of \($0)" } ?? "service outage") (\(direction.rawValue)) \(start)..\(end)"
    }
}

/// A window in which the stage service keeps silent towards one client's keepalive (SIG-6):
/// it sends that client no pings (its ping timer keeps running), while every other frame
/// flows. The client's watchdog notices after `pingInterval + pongTimeout` and reconnects:
/// "the server stops answering pings".
public struct KeepaliveSilence: Hashable, Sendable {
    public var clientName: String
    public var start: VirtualTime
    public var end: VirtualTime

    public init(clientName: String, start: VirtualTime, end: VirtualTime) {
        self.clientName = clientName
        self.start = start
        self.end = end
    }
}

/// The faults of a run that are not per-transmission draws: partitions and outages (NET-2),
/// and keepalive silences (SIG-6).
public struct FaultPlan: Hashable, Sendable {
    public var partitions: [Partition]
    public var keepaliveSilences: [KeepaliveSilence]

    public init(partitions: [Partition] = [], keepaliveSilences: [KeepaliveSilence] = []) {
        self.partitions = partitions
        self.keepaliveSilences = keepaliveSilences
    }

    /// Whether the service keeps silent towards `clientName`'s keepalive at `time`.
    public func silencesKeepalive(of clientName: String, at time: VirtualTime) -> Bool {
        keepaliveSilences.contains { $0.clientName == clientName && $0.start <= time && time < $0.end }
    }

    /// Whether a transmission on `clientName`'s link in this direction fails at `time`.
    public func cuts(clientName: String, uplink: Bool, at time: VirtualTime) -> Bool {
        partitions.contains { partition in
            (partition.clientName == nil || partition.clientName == clientName)
                && partition.direction.cuts(uplink: uplink) && partition.start <= time && time < partition.end
        }
    }

    /// When the network is whole again for good: the end of the last cut or silence.
    public var healedAt: VirtualTime { (partitions.map(\.end) + keepaliveSilences.map(\.end)).max() ?? .zero }
}

/// The keepalive of one connection (SIG-6, assumed defaults): the service pings every
/// `pingInterval`; a client that does not answer within `pongTimeout` is dropped, and a client
/// that hears no ping for `pingInterval + pongTimeout` considers its connection lost.
/// `off` turns keepalive off (no pings, no watchdog): small models for the checker.
/// `reconnectGrace` (SUB-4, assumed, default 30 s) is how long the service keeps a publisher
/// whose pongs stopped, as interrupted, for it to reconnect to the same stream; zero drops it
/// at once.
public struct KeepalivePolicy: Hashable, Sendable {
    public var pingInterval: VirtualDuration
    public var pongTimeout: VirtualDuration
    public var reconnectGrace: VirtualDuration
    public var isEnabled: Bool

    public init(
        pingInterval: VirtualDuration = .seconds(5), pongTimeout: VirtualDuration = .seconds(10),
        reconnectGrace: VirtualDuration = .seconds(30), isEnabled: Bool = true
    ) {
        self.pingInterval = pingInterval
        self.pongTimeout = pongTimeout
        self.reconnectGrace = reconnectGrace
        self.isEnabled = isEnabled
    }

    public static let off = KeepalivePolicy(isEnabled: false)

    /// How long a client waits for a ping before it calls the connection lost.
    public var clientWatchdog: VirtualDuration { pingInterval + pongTimeout }
}

/// How a client that lost its connection reconnects (NET-3, assumed defaults): attempt `n`
/// waits `min(base * multiplier^(n-1), cap)`, and after `maxAttempts` the SDK gives up.
public struct ReconnectPolicy: Hashable, Sendable {
    public var backoffBase: VirtualDuration
    public var backoffMultiplier: UInt64
    public var backoffCap: VirtualDuration
    public var maxAttempts: Int

    public init(backoffBase: VirtualDuration = .seconds(1), backoffMultiplier: UInt64 = 2, backoffCap: VirtualDuration = .seconds(30), maxAttempts: Int = 8) {
        self.backoffBase = backoffBase
        self.backoffMultiplier = backoffMultiplier
        self.backoffCap = backoffCap
        self.maxAttempts = maxAttempts
    }

    /// The wait before attempt `attempt` (1-based).
    public func backoff(beforeAttempt attempt: Int) -> VirtualDuration {
        var delay = backoffBase
        for _ in 1..<max(attempt, 1) {
            delay = delay * backoffMultiplier
            if backoffCap < delay { return backoffCap }
        }
        return min(delay, backoffCap)
    }
}
