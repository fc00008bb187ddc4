import Signaling
import Simulation
import StageCore
import StageSDK
import Testing
@testable import Scenario
@testable import StageWorld

private let mobile137 = SDKKind.mobile(SemanticVersion(1, 37, 0))

/// Answers like the default `StrategySpec`: the Swift API's strategy object for the builders test.
private final class DefaultStrategy: StageStrategy {
    func stage(_ stage: Stage, shouldSubscribeToParticipant participant: ParticipantInfo) -> SubscribeType { .audioVideo }
    func stage(_ stage: Stage, shouldPublishParticipant participant: ParticipantInfo) -> Bool { true }
    func stage(_ stage: Stage, streamsToPublishForParticipant participant: ParticipantInfo) -> [LocalStageStream] { [] }
}

private func config(_ name: String, joinRetry: JoinRetryPolicy = JoinRetryPolicy()) -> ClientConfig {
    ClientConfig(name: name, token: .signed(StageKeys.claims(participantId: name, stageId: "stage-1"), by: .app), joinRetry: joinRetry)
}

/// Two clients that join at once, in a world of these settings.
private func world(_ clients: [ClientConfig], link: LinkConditions = LinkConditions(), faults: FaultPlan = FaultPlan(), keepalive: KeepalivePolicy = .off) -> World {
    var world = World(stageId: "stage-1", clients: clients, links: [:], defaultLink: link, seed: 1, faults: faults, keepalive: keepalive)
    for index in world.clients.indices { world.scheduleHostCall(.join, clientIndex: index, at: .zero) }
    return world
}

@Suite("WorldConfig and ClientConfig: settings apart from state")
struct ConfigTests {
    @Test("the scenario loader, a fuzz draft and StageSimulation build the same ClientConfig for one declaration")
    func buildersAgree() throws {
        let participant = ScenarioDraft.Participant(
            name: "alice", sdk: mobile137, userId: "u-1", attributes: ["role": "host"], capabilities: Capabilities(),
            publish: true, subscribe: .audioVideo, signalingMetadata: ["secret": "s3cret"], notifyMetadata: ["name": "alice"]
        )
        let draft = ScenarioDraft(name: "builders", seed: 1, durationSeconds: 10, faults: [], participants: [participant], steps: [], comments: [])
        let drafted = try #require(draft.scenario().participants.first?.config)
        let loaded = try #require(ScenarioLoader.parse(draft.yaml, path: "builders.yaml").participants.first?.config)
        #expect(loaded == drafted)

        let simulation = StageSimulation(seed: 1, stageId: "stage-1")
        let stage = try Stage(token: drafted.initialToken, strategy: DefaultStrategy(), sdk: mobile137)
        stage.signalingConnectMetadata = JSONValue.object(["secret": .string("s3cret")])
        stage.signalingConnectNotifyMetadata = JSONValue.object(["name": .string("alice")])
        try simulation.add(stage)
        var expected = drafted
        expected.token = .raw(drafted.initialToken)
        #expect(simulation.world.config.clients == [expected], "the Swift API passes the token as text")
        #expect(simulation.world.clients[0].config == expected)
    }

    @Test("a configuration's fingerprint depends on its settings only, and changes with any of them")
    func fingerprint() {
        let base = WorldConfig(stageId: "stage-1", clients: [config("alice"), config("bob")])
        // Re-pinned (seed page code): a strategy's local stream writes whether it has its own
        // video configuration (LST-3), none here.
        #expect(XXH3.hex(base.fingerprint) == "320ac9b85f36cccc", "the same in every process")
        #expect(WorldConfig(stageId: "stage-1", clients: [config("bob"), config("alice")]).fingerprint == base.fingerprint, "clients are ordered by name")
        #expect(WorldConfig(stageId: "stage-1", clients: [config("bob"), config("alice")]) == base)
        let changed = [
            WorldConfig(stageId: "stage-2", clients: [config("alice"), config("bob")]),
            WorldConfig(stageId: "stage-1", clients: [config("alice", joinRetry: JoinRetryPolicy(window: .seconds(60))), config("bob")]),
            WorldConfig(stageId: "stage-1", clients: [config("alice"), config("bob")], links: ["bob": LinkConditions(lossProbability: 0.1)]),
            WorldConfig(stageId: "stage-1", clients: [config("alice"), config("bob")], keepalive: .off),
            WorldConfig(stageId: "stage-1", clients: [config("alice"), config("bob")],
                        faults: FaultPlan(partitions: [Partition(clientName: "bob", direction: .both, start: .zero, end: .seconds(1))])),
            WorldConfig(stageId: "stage-1", clients: [config("alice"), config("bob")],
                        faults: FaultPlan(partitions: [Partition(clientName: "bob", direction: .both, start: .zero, end: .seconds(2))])),
        ]
        #expect(Set(changed.map(\.fingerprint) + [base.fingerprint]).count == changed.count + 1)
    }

    @Test("worlds that differ only in their configuration have the same exploration state, step after step")
    func explorationStateLeavesConfigurationOut() {
        var first = world([config("alice"), config("bob")])
        var second = world(
            [config("alice"), config("bob")],
            link: LinkConditions(latencyMean: .milliseconds(80), retransmissionTimeout: .seconds(1)),
            faults: FaultPlan(keepaliveSilences: [KeepaliveSilence(clientName: "alice", start: .seconds(100), end: .seconds(101))])
        )
        #expect(first.config.fingerprint != second.config.fingerprint)
        first.timekeeping = .timersOnly
        second.timekeeping = .timersOnly
        var states: Set<[UInt8]> = []
        for _ in 0..<12 {
            #expect(first.explorationBytes() == second.explorationBytes())
            states.insert(first.explorationBytes())
            guard let next = first.pending.entries.min(by: { $0.sequence < $1.sequence })?.sequence else { break }
            _ = first.apply(.fire(sequence: next))
            _ = second.apply(.fire(sequence: next))
        }
        #expect(states.count > 1, "the steps changed the state")
    }

    @Test("a copy of a world or a client shares its configuration instead of copying it")
    func configurationIsShared() {
        let original = world([config("alice"), config("bob")])
        var copy = original
        _ = copy.apply(.fire(sequence: 0))
        #expect(copy.config === original.config)
        #expect(copy.server.config === original.config)
        #expect(copy != original)
    }
}
