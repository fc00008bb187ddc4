import Simulation

/// The conditions of one client's link to the stage service (NET-2).
///
/// Signaling runs over an ordered, reliable stream (WebSocket over TCP): a lost transmission is
/// sent again after `retransmissionTimeout`, and everything behind it on the link waits
/// (head-of-line blocking). Loss therefore shows up as delay, never as a missing message.
public struct LinkConditions: Hashable, Sendable {
    /// One-way delay before jitter.
    public var latencyMean: VirtualDuration
    /// Each transmission's delay is `latencyMean` plus a uniform draw in `0...jitterMax`.
    public var jitterMax: VirtualDuration
    /// Probability that one transmission of a message is lost.
    public var lossProbability: Double
    /// How long the sender waits before sending a lost transmission again.
    public var retransmissionTimeout: VirtualDuration
    /// Media capacity of the link towards the client; decides the simulcast layer (LST-4).
    public var downlinkBitsPerSecond: Int

    public init(
        latencyMean: VirtualDuration = .milliseconds(20), jitterMax: VirtualDuration = .zero,
        lossProbability: Double = 0, retransmissionTimeout: VirtualDuration = .milliseconds(200),
        downlinkBitsPerSecond: Int = 10_000_000
    ) {
        self.latencyMean = latencyMean
        self.jitterMax = jitterMax
        self.lossProbability = lossProbability
        self.retransmissionTimeout = retransmissionTimeout
        self.downlinkBitsPerSecond = downlinkBitsPerSecond
    }
}

/// The network between clients and the stage service: per-client link conditions, the
/// ordering state of each direction, and the PRNG stream that draws delays (NET-2).
public struct Network: Hashable, Sendable {
    /// Per client index: the conditions of its link.
    public var links: [LinkConditions]
    /// Per client index: the latest due time scheduled client -> server, and server -> client.
    public private(set) var uplinkLastDue: [VirtualTime]
    public private(set) var downlinkLastDue: [VirtualTime]
    /// The network's own PRNG stream (`network`), split from the run's seed.
    public private(set) var random: SplitMix64

    public init(links: [LinkConditions], seed: UInt64) {
        self.links = links
        self.uplinkLastDue = Array(repeating: .zero, count: links.count)
        self.downlinkLastDue = Array(repeating: .zero, count: links.count)
        self.random = SplitMix64.stream(seed: seed, name: "network")
    }

    /// The due time of a transmission sent now on this client's link in this direction: the
    /// drawn delay, but never before a message sent earlier on the same link (FIFO).
    public mutating func dueTime(clientIndex: Int, uplink: Bool, now: VirtualTime, extraDelay: VirtualDuration = .zero) -> VirtualTime {
        let conditions = links[clientIndex]
        let jitter = conditions.jitterMax.nanoseconds == 0
            ? VirtualDuration.zero : VirtualDuration(nanoseconds: random.upTo(conditions.jitterMax.nanoseconds))
        return keepOrder(clientIndex: clientIndex, uplink: uplink, notBefore: now + conditions.latencyMean + jitter + extraDelay)
    }

    /// A new connection on this client's link starts with empty queues in both directions.
    public mutating func resetOrder(clientIndex: Int, now: VirtualTime) {
        uplinkLastDue[clientIndex] = now
        downlinkLastDue[clientIndex] = now
    }

    /// The earliest due time at or after `notBefore` that keeps this link direction FIFO.
    public mutating func keepOrder(clientIndex: Int, uplink: Bool, notBefore: VirtualTime) -> VirtualTime {
        let last = uplink ? uplinkLastDue[clientIndex] : downlinkLastDue[clientIndex]
        let due = max(notBefore, last)
        if uplink { uplinkLastDue[clientIndex] = due } else { downlinkLastDue[clientIndex] = due }
        return due
    }
}
