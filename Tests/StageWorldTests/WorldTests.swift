import Checking
import Drivers
import Simulation
import StageCore
@testable import StageWorld
import Testing

/// A token for `name` on stage-1, signed by the app key the world trusts.
func signedToken(_ name: String, topic: String = "stage-1", expires: UInt64 = 3600) -> String {
    var claims = StageKeys.claims(participantId: name, stageId: "stage-1", validForSeconds: expires)
    claims.topic = topic
    return StageKeys.standard.token(.signed(claims, by: .app))
}

func twoClientWorld(loss: Double = 0, seed: UInt64 = 1) -> World {
    let clients = ["bob", "alice"].map { ClientConfig(name: $0, sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(signedToken($0)), strategy: StrategySpec()) }
    var world = World(stageId: "stage-1", clients: clients, links: [:], defaultLink: LinkConditions(lossProbability: loss), seed: seed)
    world.scheduleHostCall(.join, clientIndex: 0, at: .zero)
    world.scheduleHostCall(.join, clientIndex: 1, at: .milliseconds(10))
    return world
}

/// Runs the simulator to `end` and returns every event it produced.
func simulate(_ world: World, seed: UInt64, until end: VirtualTime = .seconds(5)) -> (Simulator, [TraceEvent]) {
    var simulator = Simulator(world: world, seed: seed)
    var events: [TraceEvent] = []
    simulator.run(until: end) { _, new, _ in events += new }
    return (simulator, events)
}

@Suite("World and step")
struct WorldTests {
    @Test("clients are ordered by name whatever the input order")
    func clientOrder() {
        #expect(twoClientWorld().clients.map(\.name) == ["alice", "bob"])
    }

    @Test("step is pure: the input world is unchanged and equal inputs give equal outputs")
    func purity() {
        let world = twoClientWorld()
        let action = world.enabledActions()[0]
        let (first, firstEvents) = step(world, action)
        let (second, secondEvents) = step(world, action)
        #expect(first == second)
        #expect(firstEvents == secondEvents)
        #expect(world == twoClientWorld())
        #expect(first != world)
    }

    @Test("enabledActions offers each client's next host call, in sequence order")
    func enabledActions() {
        let world = twoClientWorld()
        #expect(world.enabledActions() == [.fire(sequence: 0), .fire(sequence: 1)])
    }

    @Test("enabledActions offers the head message of each link, and its loss on lossy links")
    func enabledDeliveries() {
        var world = twoClientWorld(loss: 0.5)
        _ = world.apply(.fire(sequence: 0))
        let actions = world.enabledActions()
        #expect(actions.contains(.fire(sequence: 2)))
        #expect(actions.contains(.drop(sequence: 2)))
    }

    @Test("a lost transmission is sent again one latency plus one retransmission timeout later")
    func dropKeepsOrder() throws {
        var world = twoClientWorld()
        _ = world.apply(.fire(sequence: 0))
        _ = world.apply(.fire(sequence: 1))
        let alicesJoin = try #require(world.pending.sortedEntries.first { entry in
            if case .delivery(let envelope) = entry.payload { return envelope.clientIndex == 0 }
            return false
        })
        let lost = world.apply(.drop(sequence: alicesJoin.sequence))
        #expect(lost.map(\.category) == ["lost"])
        let resent = try #require(world.pending.sortedEntries.first { entry in
            if case .delivery(let envelope) = entry.payload { return envelope.clientIndex == 0 }
            return false
        })
        #expect(resent.due == alicesJoin.due + .milliseconds(220))
        let deliveries = world.pending.entries.filter { if case .delivery = $0.payload { true } else { false } }
        #expect(deliveries.count == 2)
    }

    @Test("two joined clients publish and subscribe to each other with no invariant broken")
    func joinPublishSubscribe() {
        let (simulator, events) = simulate(twoClientWorld(), seed: 3)
        var monitors = MonitorSet()
        monitors.observe(events, world: simulator.world)
        #expect(monitors.violations.isEmpty)
        let adds = events.filter { $0.rendererEvent?.name == "didAddStreams" }
        #expect(adds.map(\.observer).sorted() == ["alice", "bob"])
        #expect(simulator.world.server.publisherCount == 2)
    }

    @Test("an expired token is rejected with TOKEN_EXPIRED and never connects (TOK-1)")
    func expiredToken() {
        let client = ClientConfig(name: "late", sdk: .web(SemanticVersion(1, 0, 0)), token: .raw(signedToken("late", expires: 1)), strategy: StrategySpec())
        var world = World(stageId: "stage-1", clients: [client], links: [:], defaultLink: LinkConditions(), seed: 1)
        world.scheduleHostCall(.join, clientIndex: 0, at: .seconds(2))
        let (_, events) = simulate(world, seed: 1)
        let states = events.compactMap(\.rendererEvent).compactMap(\.stateName)
        #expect(!states.contains("connected"))
        #expect(events.compactMap(\.rendererEvent).last?.error?.code == .tokenExpired)
    }

    @Test("the 13th publisher fails with STAGE_AT_CAPACITY (STG-4)")
    func capacity() {
        let names = (1...13).map { "p\($0 < 10 ? "0" : "")\($0)" }
        let clients = names.map { ClientConfig(name: $0, sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(signedToken($0)), strategy: StrategySpec(subscribe: .none)) }
        var world = World(stageId: "stage-1", clients: clients, links: [:], defaultLink: LinkConditions(), seed: 1)
        for index in names.indices { world.scheduleHostCall(.join, clientIndex: index, at: .milliseconds(UInt64(index) * 100)) }
        let (simulator, events) = simulate(world, seed: 1)
        let rejected = events.filter { $0.rendererEvent?.error?.code == .stageAtCapacity }
        #expect(rejected.map(\.observer) == ["p13"])
        #expect(simulator.world.server.publisherCount == 12)
    }
}

@Suite("Monitors")
struct MonitorTests {
    @Test("the join/leave monitor flags an event about a participant that never joined")
    func eventBeforeJoin() {
        var monitors = MonitorSet()
        let info = ParticipantInfo(participantId: "ghost")
        monitors.observe([TraceEvent(time: .zero, observer: "a", kind: .renderer(.subscribeStateChanged(info, .subscribed, nil)))], world: twoClientWorld())
        #expect(monitors.violations.map(\.invariant).contains("join-before-events-leave-after"))
    }

    @Test("the stream monitor flags a leave with streams never removed")
    func leaveWithStreams() {
        var monitors = MonitorSet()
        let info = ParticipantInfo(participantId: "b")
        let stream = StageStream(participantId: "b", kind: .audio)
        let events: [RendererEvent] = [.participantDidJoin(info), .subscribeStateChanged(info, .subscribed, nil), .didAddStreams(info, [stream]), .participantDidLeave(info)]
        monitors.observe(events.map { TraceEvent(time: .zero, observer: "a", kind: .renderer($0)) }, world: twoClientWorld())
        #expect(monitors.violations.map(\.message).contains("b left with [\"audio\"] never removed"))
    }
}

@Suite("Strategy monitors")
struct StrategyMonitorTests {
    func observe(_ kinds: [TraceEvent.Kind], observer: String = "a") -> [Violation] {
        var monitors = MonitorSet([PublishCapabilityMonitor(), SilentRefreshMonitor()])
        monitors.observe(kinds.map { TraceEvent(time: .zero, observer: observer, kind: $0) }, world: twoClientWorld())
        return monitors.violations
    }

    @Test("STR-3: asking shouldPublish without the capability is a violation")
    func publishWithoutCapability() {
        var report = StrategyQueryReport(canPublish: false)
        report.askedShouldPublish = true
        #expect(observe([.strategyQueried(report)]).map(\.invariant) == ["publish-asked-only-with-capability"])
        #expect(observe([.strategyQueried(StrategyQueryReport(canPublish: false))]).isEmpty)
    }

    @Test("STR-5: an unchanged refresh followed by a renderer event is a violation; a changed one is not")
    func silentRefresh() {
        let info = ParticipantInfo(participantId: "b")
        let event = TraceEvent.Kind.renderer(.didRemoveStreams(info, [StageStream(participantId: "b", kind: .video)]))
        let unchanged = StrategyQueryReport(canPublish: true)
        var changed = unchanged
        changed.changedSubscribeAnswers = ["b"]
        #expect(observe([.hostCall(.refreshStrategy), .strategyQueried(unchanged), event]).map(\.invariant) == ["unchanged-refresh-is-silent"])
        #expect(observe([.hostCall(.refreshStrategy), .strategyQueried(changed), event]).isEmpty)
        #expect(observe([.hostCall(.join), .strategyQueried(unchanged), event]).isEmpty)
    }
}
