import Simulation

/// A fault plan drawn from a seed, swarm-testing style (NET-2): each fault kind is switched on
/// or off per seed, and the kinds that are on get parameters drawn from the seed too. Every
/// drawn parameter is listed in `parameters`, for printing under the seed.
public struct SwarmFaults: Hashable, Sendable {
    /// Applied on top of every participant's link.
    public var link: LinkConditions
    public var plan: FaultPlan
    public var parameters: [String]

    /// Draws the faults for `seed` over a run of `duration` among the named clients.
    public init(seed: UInt64, clientNames: [String], duration: VirtualDuration) {
        var random = SplitMix64.stream(seed: seed, name: "swarm")
        var link = LinkConditions()
        var partitions: [Partition] = []
        var parameters: [String] = []
        func on(_ kind: String) -> Bool {
            let enabled = random.chance(0.5)
            if !enabled { parameters.append("\(kind)=off") }
            return enabled
        }
        if on("loss") {
            link.lossProbability = Double(1 + random.upTo(29)) / 100
            parameters.append("loss=\(link.lossProbability)")
        }
        if on("jitter") {
            link.jitterMax = .milliseconds(5 + random.upTo(95))
            link.jitterDistribution = random.chance(0.5) ? .exponential : .uniform
            parameters.append("jitter=\(link.jitterMax) \(link.jitterDistribution.rawValue)")
        }
        if on("duplicate") {
            link.duplicationProbability = Double(1 + random.upTo(49)) / 100
            parameters.append("duplicate=\(link.duplicationProbability)")
        }
        if on("reorder") {
            link.reorderProbability = Double(1 + random.upTo(49)) / 100
            parameters.append("reorder=\(link.reorderProbability)")
        }
        if on("bandwidth") {
            link.signalingBitsPerSecond = Int(16 + random.upTo(240)) * 1000
            parameters.append("signalingKbps=\((link.signalingBitsPerSecond ?? 0) / 1000)")
        }
        let seconds = max(duration.nanoseconds / 1_000_000_000, 2)
        for kind in ["partition", "one-way partition", "outage"] where on(kind) && !clientNames.isEmpty {
            let start = VirtualTime.seconds(random.upTo(seconds / 2))
            let end = start + .seconds(1 + random.upTo(seconds / 3))
            let target = kind == "outage" ? nil : clientNames[Int(random.upTo(UInt64(clientNames.count - 1)))]
            let direction: PartitionDirection = kind == "one-way partition" ? (random.chance(0.5) ? .uplink : .downlink) : .both
            let partition = Partition(clientName: target, direction: direction, start: start, end: end)
            partitions.append(partition)
            parameters.append("\(kind): \(partition.summary)")
        }
        self.link = link
        self.plan = FaultPlan(partitions: partitions)
        self.parameters = parameters
    }

    /// `conditions` with the swarm's faults added (the link's own latency and capacity are kept).
    public func applied(to conditions: LinkConditions) -> LinkConditions {
        var result = conditions
        result.lossProbability = max(conditions.lossProbability, link.lossProbability)
        result.jitterMax = max(conditions.jitterMax, link.jitterMax)
        if link.jitterMax > .zero { result.jitterDistribution = link.jitterDistribution }
        result.duplicationProbability = max(conditions.duplicationProbability, link.duplicationProbability)
        result.reorderProbability = max(conditions.reorderProbability, link.reorderProbability)
        result.signalingBitsPerSecond = link.signalingBitsPerSecond ?? conditions.signalingBitsPerSecond
        return result
    }
}
