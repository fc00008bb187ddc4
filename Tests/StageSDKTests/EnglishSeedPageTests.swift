import StageCore
import StageSDK
import StageWorld
import SubscriberModel
import Testing

// Cases written from the English seed pages (`ivs-publish-subscribe.en.txt`,
// `opentok-subscribe.en.txt`) the way an outside reviewer would: the page's names and values,
// through the public Swift API. Each test quotes the sentence it checks.

/// The page's "hasUserTappedPublishButton" strategy: subscribe to everyone, publish only once
/// the user has tapped the button.
final class TapToPublishStrategy: StageStrategy {
    var hasUserTappedPublishButton = false
    var publishQuestions = 0
    let streams = [LocalStageStream(kind: .video), LocalStageStream(kind: .audio)]

    func stage(_ stage: Stage, shouldSubscribeToParticipant participant: ParticipantInfo) -> SubscribeType { .audioVideo }

    func stage(_ stage: Stage, shouldPublishParticipant participant: ParticipantInfo) -> Bool {
        publishQuestions += 1
        return hasUserTappedPublishButton
    }

    func stage(_ stage: Stage, streamsToPublishForParticipant participant: ParticipantInfo) -> [LocalStageStream] { streams }
}

/// The page's moderator strategy with the "additional business logic" it mentions: moderators
/// see each other, guests see guests, and nobody but a moderator sees a moderator.
final class ModeratorsSeeEachOtherStrategy: StageStrategy {
    let isModerator: Bool
    let streams = [LocalStageStream(kind: .video), LocalStageStream(kind: .audio)]

    init(isModerator: Bool) { self.isModerator = isModerator }

    func stage(_ stage: Stage, shouldSubscribeToParticipant participant: ParticipantInfo) -> SubscribeType {
        switch participant.attributes["role"] {
        case "moderator": isModerator ? .audioVideo : .none
        case "guest": .audioVideo
        default: .none
        }
    }

    func stage(_ stage: Stage, shouldPublishParticipant participant: ParticipantInfo) -> Bool { true }

    func stage(_ stage: Stage, streamsToPublishForParticipant participant: ParticipantInfo) -> [LocalStageStream] { streams }
}

@Suite("The English IVS page, through the Swift API")
struct EnglishIVSPageTests {
    @Test("\"multiple renderers can be added\": each renderer gets every event, in the same order (STG-1, RND-1)")
    func multipleRenderers() throws {
        let simulation = StageSimulation(seed: 12, stageId: "demo")
        let alice = try addStage("alice", to: simulation)
        let second = RecordingRenderer()
        alice.stage.addRenderer(second)
        let bob = try addStage("bob", to: simulation)
        try alice.stage.join()
        try bob.stage.join()
        try simulation.run(for: .seconds(2))
        bob.stage.leave()
        try simulation.run(for: .seconds(1))

        #expect(alice.renderer.events.contains(.joined("bob")))
        #expect(alice.renderer.events.contains(.left("bob")))
        #expect(second.events == alice.renderer.events)
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    @Test("\"Once connected to the stage, the SDK queries the host application to see if a particular participant should publish\": the trace records connected, then the question (STR-3)")
    func publishAskedOnceConnected() throws {
        let simulation = StageSimulation(seed: 3, stageId: "demo")
        let alice = try addStage("alice", to: simulation)
        let bob = try addStage("bob", to: simulation)
        try alice.stage.join()
        try bob.stage.join()
        try simulation.run(for: .seconds(2))

        for name in ["alice", "bob"] {
            let connected = try #require(simulation.trace.events.firstIndex {
                $0.observer == name && $0.rendererEvent == .connectionStateChanged(.connected, nil)
            })
            let asked = try #require(simulation.trace.events.firstIndex {
                if $0.observer == name, case .strategyQueried(let report) = $0.kind { return report.askedShouldPublish }
                return false
            })
            let attempting = try #require(simulation.trace.events.firstIndex {
                $0.observer == name && $0.rendererEvent.map { if case .publishStateChanged(_, .attemptingPublish, _) = $0 { true } else { false } } == true
            })
            #expect(connected < asked && asked < attempting, "\(name): connected at \(connected), asked at \(asked), attempting at \(attempting)")
        }
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    @Test("\"hasUserTappedPublishButton\": nothing is published until the variable changes and refreshStrategy() is called (STR-3, STR-5)")
    func tapToPublish() throws {
        let simulation = StageSimulation(seed: 4, stageId: "demo")
        let strategy = TapToPublishStrategy()
        let alice = try addStage("alice", to: simulation, strategy: strategy)
        let bob = try addStage("bob", to: simulation)
        try alice.stage.join()
        try bob.stage.join()
        try simulation.run(for: .seconds(2))
        #expect(strategy.publishQuestions >= 1)
        #expect(bob.renderer.index(of: .joined("alice")) == nil)
        #expect(!alice.renderer.events.contains { if case .publish("alice", let state) = $0 { state != .notPublished } else { false } })

        strategy.hasUserTappedPublishButton = true
        try simulation.run(for: .seconds(2))
        #expect(bob.renderer.index(of: .joined("alice")) == nil, "the changed variable is applied only at refreshStrategy()")

        let mark = alice.renderer.events.count
        alice.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        #expect(Array(alice.renderer.events[mark...]).contains(.publish("alice", .attemptingPublish)))
        #expect(Array(alice.renderer.events[mark...]).contains(.publish("alice", .published)))
        #expect(bob.renderer.shownStreams["alice"] == [.audio, .video])
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    @Test("\"let moderators see each other but remain invisible to guests\" (STR-1, RND-4)")
    func moderatorsSeeEachOther() throws {
        let simulation = StageSimulation(seed: 8, stageId: "panel")
        let moderators = try ["mod1", "mod2"].map {
            try addStage($0, to: simulation, strategy: ModeratorsSeeEachOtherStrategy(isModerator: true), attributes: ["role": "moderator"])
        }
        let guests = try ["guest1", "guest2"].map {
            try addStage($0, to: simulation, strategy: ModeratorsSeeEachOtherStrategy(isModerator: false), attributes: ["role": "guest"])
        }
        for participant in moderators + guests { try participant.stage.join() }
        try simulation.run(for: .seconds(3))

        #expect(moderators[0].renderer.shownStreams["mod2"] == [.audio, .video])
        #expect(moderators[1].renderer.shownStreams["mod1"] == [.audio, .video])
        for moderator in moderators {
            #expect(moderator.renderer.shownStreams["guest1"] == [.audio, .video])
            #expect(moderator.renderer.shownStreams["guest2"] == [.audio, .video])
        }
        for guest in guests {
            #expect(guest.renderer.shownStreams["mod1"] == nil && guest.renderer.shownStreams["mod2"] == nil)
        }
        #expect(guests[0].renderer.shownStreams["guest2"] == [.audio, .video])
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    @Test("\"If you specify attributes in the CreateParticipantToken endpoint request, you can see the attributes in IVSParticipantInfo\" (TOK-2, TOK-3)")
    func createParticipantTokenAttributes() throws {
        final class JoinedInfo: StageRenderer {
            var infos: [ParticipantInfo] = []
            func stage(_ stage: Stage, participantDidJoin participant: ParticipantInfo) { infos.append(participant) }
        }
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let guest = try Stage(
            token: simulation.token(for: "guest", userId: "user-7", attributes: ["role": "guest", "seat": "3"], signedBy: .service),
            strategy: VideoChatStrategy()
        )
        try simulation.add(guest)
        let viewer = try addStage("viewer", to: simulation)
        let joined = JoinedInfo()
        viewer.stage.addRenderer(joined)
        try guest.join()
        try viewer.stage.join()
        try simulation.run(for: .seconds(2))

        let info = try #require(joined.infos.first { $0.participantId == "guest" })
        #expect(info.attributes == ["role": "guest", "seat": "3"])
        #expect(info.userId == "user-7")
        #expect(!info.isLocal)
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    @Test("\"setMuted ... can be called on the stream before ... it is returned\": the stream is published muted (LST-1, RND-4)")
    func mutedBeforeReturned() throws {
        final class AddedStreams: StageRenderer {
            var added: [StageStream] = []
            func stage(_ stage: Stage, participant: ParticipantInfo, didAdd streams: [StageStream]) { added += streams }
        }
        let simulation = StageSimulation(seed: 6, stageId: "demo")
        let aliceStrategy = VideoChatStrategy()
        aliceStrategy.microphone.setMuted(true)
        let alice = try addStage("alice", to: simulation, strategy: aliceStrategy)
        let bob = try addStage("bob", to: simulation)
        let added = AddedStreams()
        bob.stage.addRenderer(added)
        try alice.stage.join()
        try bob.stage.join()
        try simulation.run(for: .seconds(2))

        #expect(added.added.contains(StageStream(participantId: "alice", kind: .audio, isMuted: true)))
        #expect(added.added.contains(StageStream(participantId: "alice", kind: .video, isMuted: false)))
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    @Test("background \"(or .none, if applicable)\": publishing stops and every remote stream is removed (STR-8, RND-5)")
    func backgroundWithNone() throws {
        final class BackgroundNone: StageStrategy {
            var isInBackground = false
            let streams = [LocalStageStream(kind: .video), LocalStageStream(kind: .audio)]
            func stage(_ stage: Stage, shouldSubscribeToParticipant participant: ParticipantInfo) -> SubscribeType { isInBackground ? .none : .audioVideo }
            func stage(_ stage: Stage, shouldPublishParticipant participant: ParticipantInfo) -> Bool { !isInBackground }
            func stage(_ stage: Stage, streamsToPublishForParticipant participant: ParticipantInfo) -> [LocalStageStream] { streams }
        }
        let simulation = StageSimulation(seed: 10, stageId: "demo")
        let strategy = BackgroundNone()
        let alice = try addStage("alice", to: simulation, strategy: strategy)
        let bob = try addStage("bob", to: simulation)
        try alice.stage.join()
        try bob.stage.join()
        try simulation.run(for: .seconds(2))
        #expect(alice.renderer.shownStreams["bob"] == [.audio, .video])

        strategy.isInBackground = true
        alice.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        #expect(alice.renderer.shownStreams["bob"] == nil)
        #expect(alice.renderer.events.contains(.publish("alice", .notPublished)))
        #expect(bob.renderer.index(of: .left("alice")) != nil)
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }
}

@Suite("The English OpenTok page, on the Swift API's simulation")
struct EnglishOpenTokPageTests {
    /// Every streamCreated in the trace: who was told, and the stream.
    private static func createdStreams(_ simulation: StageSimulation) -> [(observer: String, stream: OpenTokStream)] {
        simulation.trace.events.compactMap { event in
            if case .subscriber(let told) = event.kind, case .streamCreated(let stream) = told.event { return (event.observer, stream) }
            return nil
        }
    }

    @Test("\"streamId (NSString) The unique ID for the stream\": one id per stream, the same at every client, never reused (SUB-7, SUB-1)")
    func streamIdIsUnique() throws {
        let simulation = StageSimulation(seed: 14, stageId: "demo")
        let hostStrategy = VideoChatStrategy()
        let host = try addStage("host", to: simulation, strategy: hostStrategy)
        let early = try addStage("early", to: simulation)
        let late = try addStage("late", to: simulation)
        try host.stage.join()
        try early.stage.join()
        try simulation.run(for: .seconds(2))
        hostStrategy.isInBackground = true
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        hostStrategy.isInBackground = false
        host.stage.refreshStrategy()
        try late.stage.join()
        try simulation.run(for: .seconds(2))

        let created = Self.createdStreams(simulation).filter { $0.stream.connectionId == "host" }
        let earlyIds = created.filter { $0.observer == "early" }.map(\.stream.streamId)
        let lateIds = created.filter { $0.observer == "late" }.map(\.stream.streamId)
        #expect(earlyIds.count == 2)
        #expect(Set(earlyIds).count == 2, "the host's two publishes are two streams: \(earlyIds)")
        #expect(lateIds.count == 1)
        #expect(lateIds.first == earlyIds.last, "late and early name the host's second stream \(lateIds) and \(earlyIds)")
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }
}
