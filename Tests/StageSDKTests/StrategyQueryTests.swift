import StageCore
import StageSDK
import StageWorld
import Testing

/// STR-1 in the seed's words: "When a remote participant joins a stage, the SDK queries the
/// host application about the desired subscription state for that participant", and "the
/// host application does not need to worry about the publish state": the query comes with the
/// join, whether or not the participant ever publishes. Only the host's own strategy object
/// can see that query (the renderers hear nothing of a participant that does not publish).
@Suite("Strategy queries seen by the host (STR-1)")
struct StrategyQueryTests {
    /// Subscribes to everyone with audio and video and records whom it was asked about.
    final class AskedStrategy: StageStrategy {
        var askedAbout: [String] = []
        let publishes: Bool

        init(publishes: Bool) { self.publishes = publishes }

        func stage(_ stage: Stage, shouldSubscribeToParticipant participant: ParticipantInfo) -> SubscribeType {
            askedAbout.append(participant.participantId)
            return .audioVideo
        }

        func stage(_ stage: Stage, shouldPublishParticipant participant: ParticipantInfo) -> Bool { publishes }

        func stage(_ stage: Stage, streamsToPublishForParticipant participant: ParticipantInfo) -> [LocalStageStream] {
            [LocalStageStream(kind: .audio)]
        }
    }

    @Test("shouldSubscribe is asked about a remote participant when it joins, though it never publishes")
    func askedAtJoinWithoutPublish() throws {
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let aliceStrategy = AskedStrategy(publishes: false)
        let alice = try addStage("alice", to: simulation, strategy: aliceStrategy)
        let bob = try addStage("bob", to: simulation, strategy: AskedStrategy(publishes: false))
        try alice.stage.join()
        try simulation.run(for: .seconds(1))
        #expect(aliceStrategy.askedAbout.isEmpty)
        try bob.stage.join()
        try simulation.run(for: .seconds(2))

        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
        #expect(aliceStrategy.askedAbout.contains("bob"), "alice's strategy was never asked about bob, who joined")
        #expect(alice.renderer.index(of: .joined("bob")) == nil, "bob does not publish, so renderers hear nothing of him (RND-2)")
    }
}
