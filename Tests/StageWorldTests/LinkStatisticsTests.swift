import Checking
import Drivers
import Simulation
import StageCore
import StageWorld
import Testing

/// NET-2's random faults happen at the rates a link is configured with. A fault that never
/// happens breaks no invariant (the network only behaves better), so no monitor can see a
/// model that ignores a probability or shrinks a jitter; these tests measure the rates. Each
/// draws thousands of transmissions from a fixed seed and accepts four standard deviations
/// around the configured rate, so a correct model passes for any seed and a model off by a
/// few percentage points fails.
@Suite("Link fault statistics (NET-2)")
struct LinkStatisticsTests {
    static let samples = 4_000

    /// Whether `count` of `samples` draws is within four standard deviations of `probability`.
    static func plausible(_ count: Int, of samples: Int, at probability: Double) -> Bool {
        let expected = Double(samples) * probability
        let deviation = (Double(samples) * probability * (1 - probability)).squareRoot()
        return abs(Double(count) - expected) <= 4 * deviation
    }

    /// One-way delays of `samples` frames sent a second apart (so none queues behind another).
    static func delays(_ link: LinkConditions, seed: UInt64 = 11) -> [VirtualDuration] {
        var network = Network(links: [link], seed: seed)
        return (0..<samples).map { second in
            let now = VirtualTime.seconds(UInt64(second))
            return network.dueTime(clientIndex: 0, uplink: second % 2 == 0, now: now, bytes: 200) - now
        }
    }

    @Test("uniform jitter stays within its bound, above the latency, with its mean at half the bound")
    func uniformJitter() {
        let delays = Self.delays(LinkConditions(latencyMean: .milliseconds(20), jitterMax: .milliseconds(10)))
        #expect(delays.allSatisfy { $0 >= .milliseconds(20) && $0 <= .milliseconds(30) })
        let meanJitter = delays.map { Double(($0 - .milliseconds(20)).nanoseconds) }.reduce(0, +) / Double(delays.count) / 1e6
        #expect(abs(meanJitter - 5) < 0.25, "mean jitter \(meanJitter) ms")
    }

    @Test("exponential jitter has its configured mean and a tail capped at ten times it")
    func exponentialJitter() {
        let delays = Self.delays(LinkConditions(latencyMean: .milliseconds(20), jitterMax: .milliseconds(10), jitterDistribution: .exponential))
        let jitters = delays.map { Double(($0 - .milliseconds(20)).nanoseconds) / 1e6 }
        let mean = jitters.reduce(0, +) / Double(jitters.count)
        #expect(abs(mean - 10) < 0.7, "mean jitter \(mean) ms")
        #expect(jitters.allSatisfy { $0 >= 0 && $0 <= 100 })
        #expect(jitters.contains { $0 > 40 }, "no long tail")
    }

    @Test("a held-up transmission arrives two latencies late, at the configured rate")
    func reordering() {
        let delays = Self.delays(LinkConditions(latencyMean: .milliseconds(20), jitterMax: .milliseconds(5), reorderProbability: 0.25))
        #expect(delays.allSatisfy { ($0 >= .milliseconds(20) && $0 <= .milliseconds(25)) || ($0 >= .milliseconds(60) && $0 <= .milliseconds(65)) })
        #expect(Self.plausible(delays.filter { $0 >= .milliseconds(60) }.count, of: Self.samples, at: 0.25))
    }

    @Test("transmissions are duplicated at the configured rate")
    func duplication() {
        var network = Network(links: [LinkConditions(duplicationProbability: 0.3)], seed: 5)
        let duplicated = (0..<Self.samples).filter { _ in network.duplicates(clientIndex: 0) }.count
        #expect(Self.plausible(duplicated, of: Self.samples, at: 0.3), "\(duplicated) of \(Self.samples)")
    }

    @Test("a timed run loses transmissions at the link's loss rate")
    func loss() {
        let link = LinkConditions(latencyMean: .milliseconds(20), lossProbability: 0.2)
        let clients = ["ann", "bo", "cy", "di", "ed", "fay"].map { ClientConfig(name: $0, sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(signedToken($0)), strategy: StrategySpec()) }
        var world = World(stageId: "stage-1", clients: clients, links: [:], defaultLink: link, seed: 21)
        for index in 0..<6 { world.scheduleHostCall(.join, clientIndex: index, at: .milliseconds(UInt64(index) * 5)) }
        let run = MonitoredRun(world: world, seed: 21, until: .seconds(300))
        let lost = run.trace.events.filter { $0.category == "lost" }.count
        let arrived = run.trace.events.filter { ["delivered", "duplicate", "held"].contains($0.category) }.count
        #expect(lost + arrived > 1_000, "too few transmissions: \(lost + arrived)")
        #expect(Self.plausible(lost, of: lost + arrived, at: 0.2), "\(lost) lost of \(lost + arrived)")
        #expect(run.violations.isEmpty, "\(run.violations)")
    }

    @Test("a lost transmission is sent again after the retransmission timeout, doubled for each earlier loss of it up to 64 times, plus the latency")
    func retransmissionBackoff() throws {
        let link = LinkConditions(latencyMean: .milliseconds(20), retransmissionTimeout: .milliseconds(200))
        let client = ClientConfig(name: "ann", sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(signedToken("ann")), strategy: StrategySpec())
        var world = World(stageId: "stage-1", clients: [client], links: [:], defaultLink: link, seed: 4)
        world.scheduleHostCall(.join, clientIndex: 0, at: .zero)
        _ = world.apply(.fire(sequence: try #require(world.pending.entries.first).sequence))
        func inFlight() throws -> (sequence: UInt64, due: VirtualTime) {
            let entry = try #require(world.pending.entries.first { if case .delivery = $0.payload { true } else { false } })
            return (entry.sequence, entry.due)
        }
        #expect(try inFlight().due == .milliseconds(20))
        for earlierLosses in 0..<9 {
            let lost = try inFlight()
            _ = world.apply(.drop(sequence: lost.sequence))
            let timeout = VirtualDuration.milliseconds(200 << UInt64(min(earlierLosses, 6)))
            #expect(try inFlight().due == lost.due + timeout + .milliseconds(20), "after \(earlierLosses + 1) losses")
        }
    }
}
