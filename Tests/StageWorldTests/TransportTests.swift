import Checking
import Drivers
import Simulation
import StageCore
@testable import StageWorld
import Testing

/// NET-2 at the receiving transport: duplicates are dropped, frames that overtook a missing one
/// wait for it, and the application sees each frame once, in order.
@Suite("Receiving transport (NET-2)")
struct TransportTests {
    private func frame(_ sequence: UInt64) -> Envelope {
        var envelope = Envelope(from: .server, to: .client(0), message: .ping, epoch: 0, channelId: "stage-1")
        envelope.sequence = sequence
        return envelope
    }

    @Test("an early frame is held until the gap fills, then handed on next, in order; a second copy is dropped")
    func reassembly() {
        var world = twoClientWorld()
        let pendingBefore = world.pending.count
        let early = world.reassemble(frame(2))
        #expect(early.ready == nil)
        #expect(early.trace.map(\.category) == ["held"])
        let filled = world.reassemble(frame(1))
        #expect(filled.ready?.sequence == 1)
        #expect(world.pending.count == pendingBefore + 1, "the held frame is scheduled again, now")
        #expect(world.reassemble(frame(2)).ready?.sequence == 2)
        #expect(world.reassemble(frame(2)).trace.map(\.category) == ["duplicate"])
        #expect(world.reassemble(frame(1)).ready == nil)
        #expect(world.reassemble(frame(3)).ready?.sequence == 3)
    }

    @Test("frames outside any sequence (injected ones) are passed on as they come")
    func unsequenced() {
        var world = twoClientWorld()
        #expect(world.reassemble(frame(0)).ready != nil)
        #expect(world.reassemble(frame(0)).ready != nil)
    }

    @Test("a second copy of a frame already handed on is still a duplicate after the service closes a connection (SIG-6)")
    func duplicateAfterClose() throws {
        let client = ClientConfig(name: "alice", sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(signedToken("alice")), strategy: StrategySpec())
        var world = World(stageId: "stage-1", clients: [client], links: [:], defaultLink: LinkConditions(duplicationProbability: 1), seed: 1)
        world.send(Envelope(from: .client(0), to: .server, message: .join(token: client.initialToken), epoch: 2, channelId: "stage-1"))
        let copies = world.pending.entries.filter { if case .delivery = $0.payload { true } else { false } }
        try #require(copies.count == 2)
        guard case .delivery(let first) = copies[0].payload, case .delivery(let second) = copies[1].payload else { return }
        world.pending.remove(sequence: copies[0].sequence)
        #expect(world.reassemble(first).ready != nil)
        _ = world.closeConnection(ServiceConnection(clientIndex: 0, epoch: 1))
        #expect(world.reassemble(second).trace.map(\.category) == ["duplicate"])
    }

    @Test("a narrow link queues frames for their transmission time")
    func bandwidth() {
        var network = Network(links: [LinkConditions(latencyMean: .zero, signalingBitsPerSecond: 8_000)], seed: 1)
        let first = network.dueTime(clientIndex: 0, uplink: true, now: .zero, bytes: 100)
        let second = network.dueTime(clientIndex: 0, uplink: true, now: .zero, bytes: 100)
        #expect(first == .milliseconds(100))
        #expect(second == .milliseconds(200))
    }

    @Test("with every transmission duplicated and reordered, a lossy run still converges and breaks no invariant")
    func hostileNetworkConverges() {
        let link = LinkConditions(latencyMean: .milliseconds(25), jitterMax: .milliseconds(40), jitterDistribution: .exponential,
                                  lossProbability: 0.1, duplicationProbability: 1, reorderProbability: 0.5)
        let clients = ["bob", "alice", "carol"].map { ClientConfig(name: $0, sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(signedToken($0)), strategy: StrategySpec()) }
        var world = World(stageId: "stage-1", clients: clients, links: [:], defaultLink: link, seed: 9)
        for index in 0..<3 { world.scheduleHostCall(.join, clientIndex: index, at: .milliseconds(UInt64(index) * 7)) }
        let run = MonitoredRun(world: world, seed: 9, until: .seconds(20))
        #expect(run.violations.isEmpty, "\(run.violations)")
        #expect(run.trace.events.contains { $0.category == "duplicate" })
        #expect(run.trace.events.filter { $0.rendererEvent?.name == "didAddStreams" }.count == 6)
    }
}
