import Foundation
import Simulation
import StageCore

/// How a link's jitter is drawn (NET-2): uniform in `0...jitter`, or exponential with mean
/// `jitter` (a long tail, capped at ten times the mean).
public enum JitterDistribution: String, Hashable, Sendable, CaseIterable {
    case uniform, exponential
}

/// The conditions of one client's link to the stage service (NET-2).
///
/// Signaling runs over an ordered, reliable stream (WebSocket over TCP): a lost transmission is
/// sent again after `retransmissionTimeout`, and everything behind it on the link waits
/// (head-of-line blocking). Duplicated and reordered segments are sorted out by the receiving
/// transport (sequence numbers), so the application still sees each frame once, in order.
public struct LinkConditions: Hashable, Sendable {
    /// One-way delay before jitter.
    public var latencyMean: VirtualDuration
    /// The jitter's bound (uniform) or mean (exponential).
    public var jitterMax: VirtualDuration
    public var jitterDistribution: JitterDistribution
    /// Probability that one transmission of a message is lost.
    public var lossProbability: Double
    /// Probability that a transmission arrives twice.
    public var duplicationProbability: Double
    /// Probability that a transmission is held up in the network and overtaken by later ones.
    public var reorderProbability: Double
    /// Signaling capacity of the link in each direction; nil is unlimited. Frames queue behind
    /// each other for their transmission time.
    public var signalingBitsPerSecond: Int?
    /// How long the sender waits before sending a lost transmission again.
    public var retransmissionTimeout: VirtualDuration
    /// Media capacity of the link towards the client; decides the simulcast layer (LST-4).
    public var downlinkBitsPerSecond: Int

    public init(
        latencyMean: VirtualDuration = .milliseconds(20), jitterMax: VirtualDuration = .zero,
        jitterDistribution: JitterDistribution = .uniform, lossProbability: Double = 0,
        duplicationProbability: Double = 0, reorderProbability: Double = 0, signalingBitsPerSecond: Int? = nil,
        retransmissionTimeout: VirtualDuration = .milliseconds(200), downlinkBitsPerSecond: Int = 10_000_000
    ) {
        self.latencyMean = latencyMean
        self.jitterMax = jitterMax
        self.jitterDistribution = jitterDistribution
        self.lossProbability = lossProbability
        self.duplicationProbability = duplicationProbability
        self.reorderProbability = reorderProbability
        self.signalingBitsPerSecond = signalingBitsPerSecond
        self.retransmissionTimeout = retransmissionTimeout
        self.downlinkBitsPerSecond = downlinkBitsPerSecond
    }
}

/// The state of one direction of one link: FIFO and bandwidth bookkeeping on the sending side,
/// sequence numbers and the reassembly buffer on the receiving side.
public struct LinkDirection: Hashable, Sendable {
    /// The latest due time scheduled in order (FIFO).
    public var lastDue: VirtualTime = .zero
    /// When the link has finished sending what is queued (bandwidth).
    public var busyUntil: VirtualTime = .zero
    /// The sequence number the next frame sent gets, and the one the receiver waits for next.
    public var nextSent: UInt64 = 1
    public var nextExpected: UInt64 = 1
    /// Frames that arrived ahead of a missing one, waiting for it.
    public var held: [Envelope] = []
}

/// The network between clients and the stage service: per-client link conditions, the state
/// of each direction, and the PRNG stream that draws delays and network faults (NET-2).
public struct Network: Hashable, Sendable {
    /// Per client index: the conditions of its link, as configured (`WorldConfig.links`, the
    /// same storage: never changed, never written into the state encoding).
    public let links: [LinkConditions]
    /// Per client index, two directions: `2 * index` towards the client, `2 * index + 1` towards the service.
    public internal(set) var directions: [LinkDirection]
    /// The network's own PRNG stream (`network`), split from the run's seed.
    public private(set) var random: SplitMix64

    public init(links: [LinkConditions], seed: UInt64) {
        self.links = links
        self.directions = Array(repeating: LinkDirection(), count: links.count * 2)
        self.random = SplitMix64.stream(seed: seed, name: "network")
    }

    /// The index in `directions` of one direction of a client's link.
    public static func direction(clientIndex: Int, uplink: Bool) -> Int { clientIndex * 2 + (uplink ? 1 : 0) }

    /// When a transmission of `bytes` sent now arrives: it waits for the link (bandwidth), then
    /// takes the latency plus drawn jitter, and never arrives before one sent earlier (FIFO),
    /// unless the network holds it up (reordering).
    public mutating func dueTime(
        clientIndex: Int, uplink: Bool, now: VirtualTime, bytes: Int = 0, extraDelay: VirtualDuration = .zero
    ) -> VirtualTime {
        let conditions = links[clientIndex]
        let slot = Self.direction(clientIndex: clientIndex, uplink: uplink)
        var departure = now
        if let capacity = conditions.signalingBitsPerSecond, capacity > 0 {
            let bits = UInt64(bytes) * (Mutants.isOn(.signalingBandwidthInBytes) ? 1 : 8)
            departure = max(now, directions[slot].busyUntil) + VirtualDuration(nanoseconds: bits * 1_000_000_000 / UInt64(capacity))
            directions[slot].busyUntil = departure
        }
        let arrival = departure + conditions.latencyMean + jitter(conditions) + extraDelay
        if conditions.reorderProbability > 0 && random.chance(conditions.reorderProbability) {
            return arrival + conditions.latencyMean + conditions.latencyMean
        }
        return keepOrder(clientIndex: clientIndex, uplink: uplink, notBefore: arrival)
    }

    private mutating func jitter(_ conditions: LinkConditions) -> VirtualDuration {
        let bound = conditions.jitterMax.nanoseconds
        guard bound > 0 else { return .zero }
        switch conditions.jitterDistribution {
        case .uniform:
            return VirtualDuration(nanoseconds: random.upTo(bound))
        case .exponential:
            let unit = max(random.nextUnit(), 1e-12)
            return VirtualDuration(nanoseconds: UInt64(min(-log(unit), 10) * Double(bound)))
        }
    }

    /// Whether a transmission sent now also arrives a second time (NET-2 duplication).
    public mutating func duplicates(clientIndex: Int) -> Bool {
        let probability = links[clientIndex].duplicationProbability
        return probability > 0 && random.chance(probability)
    }

    /// A new connection on this client's link starts with empty queues and fresh sequence
    /// numbers in both directions.
    public mutating func resetOrder(clientIndex: Int, now: VirtualTime) {
        for uplink in [false, true] {
            directions[Self.direction(clientIndex: clientIndex, uplink: uplink)] = LinkDirection(lastDue: now, busyUntil: now)
        }
    }

    /// The earliest due time at or after `notBefore` that keeps this link direction FIFO.
    public mutating func keepOrder(clientIndex: Int, uplink: Bool, notBefore: VirtualTime) -> VirtualTime {
        let slot = Self.direction(clientIndex: clientIndex, uplink: uplink)
        let due = max(notBefore, directions[slot].lastDue)
        directions[slot].lastDue = due
        return due
    }
}
