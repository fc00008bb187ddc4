import StageCore
import StageSDK
import StageWorld
import Testing

// What a host application would write: a strategy, a renderer that records what its UI would
// show, and stages joined in a seeded simulation.

/// The seed's video-chat strategy: publish camera and microphone, subscribe to everyone with
/// audio and video; in the background, stop publishing and keep remote audio only (STR-8).
final class VideoChatStrategy: StageStrategy {
    var camera = LocalStageStream(kind: .video)
    var microphone = LocalStageStream(kind: .audio)
    var isInBackground = false

    func stage(_ stage: Stage, shouldSubscribeToParticipant participant: ParticipantInfo) -> SubscribeType {
        isInBackground ? .audioOnly : .audioVideo
    }

    func stage(_ stage: Stage, shouldPublishParticipant participant: ParticipantInfo) -> Bool {
        !isInBackground
    }

    func stage(_ stage: Stage, streamsToPublishForParticipant participant: ParticipantInfo) -> [LocalStageStream] {
        [camera, microphone]
    }
}

/// The seed's attribute-based strategy: moderators watch guests without being seen or heard.
final class RoleStrategy: StageStrategy {
    let streams = [LocalStageStream(kind: .video), LocalStageStream(kind: .audio)]

    func stage(_ stage: Stage, shouldSubscribeToParticipant participant: ParticipantInfo) -> SubscribeType {
        switch participant.attributes["role"] {
        case "moderator": .none
        case "guest": .audioVideo
        default: .none
        }
    }

    func stage(_ stage: Stage, shouldPublishParticipant participant: ParticipantInfo) -> Bool { true }

    func stage(_ stage: Stage, streamsToPublishForParticipant participant: ParticipantInfo) -> [LocalStageStream] {
        streams
    }
}

/// Records every callback, and keeps the streams a UI would be showing per participant.
final class RecordingRenderer: StageRenderer {
    enum Event: Hashable {
        case joined(String)
        case left(String)
        case publish(String, PublishState)
        case subscribe(String, SubscribeState)
        case added(String, Set<MediaKind>)
        case removed(String, Set<MediaKind>)
        case muted(String, [StageStream])
        case connection(ConnectionState, StageErrorCode?)
    }

    private(set) var events: [Event] = []
    private(set) var shownStreams: [String: Set<MediaKind>] = [:]

    func stage(_ stage: Stage, participantDidJoin participant: ParticipantInfo) {
        events.append(.joined(participant.participantId))
    }

    func stage(_ stage: Stage, participantDidLeave participant: ParticipantInfo) {
        events.append(.left(participant.participantId))
    }

    func stage(_ stage: Stage, participant: ParticipantInfo, didChange publishState: PublishState) {
        events.append(.publish(participant.participantId, publishState))
    }

    func stage(_ stage: Stage, participant: ParticipantInfo, didChange subscribeState: SubscribeState) {
        events.append(.subscribe(participant.participantId, subscribeState))
    }

    func stage(_ stage: Stage, participant: ParticipantInfo, didAdd streams: [StageStream]) {
        events.append(.added(participant.participantId, Set(streams.map(\.kind))))
        shownStreams[participant.participantId, default: []].formUnion(streams.map(\.kind))
    }

    func stage(_ stage: Stage, participant: ParticipantInfo, didRemove streams: [StageStream]) {
        events.append(.removed(participant.participantId, Set(streams.map(\.kind))))
        shownStreams[participant.participantId, default: []].subtract(streams.map(\.kind))
        if shownStreams[participant.participantId]?.isEmpty == true { shownStreams[participant.participantId] = nil }
    }

    func stage(_ stage: Stage, participant: ParticipantInfo, didChangeMutedStreams streams: [StageStream]) {
        events.append(.muted(participant.participantId, streams))
    }

    func stage(_ stage: Stage, didChange connectionState: ConnectionState, withError error: StageError?) {
        events.append(.connection(connectionState, error?.code))
    }

    func index(of event: Event, from start: Int = 0) -> Int? {
        events[start...].firstIndex(of: event)
    }

    /// The first didAddStreams about `participant` at or after `start`.
    func firstAdd(of participant: String, from start: Int = 0) -> Int? {
        events[start...].firstIndex { if case .added(participant, _) = $0 { true } else { false } }
    }
}

/// Collects the errors the error delegate hears.
final class ErrorRecorder: StageErrorDelegate {
    private(set) var codes: [StageErrorCode] = []
    func stage(_ stage: Stage, didEmitError error: StageError) { codes.append(error.code) }
}

/// Creates, adds and returns a stage with a recording renderer.
@discardableResult
func addStage(
    _ name: String, to simulation: StageSimulation, strategy: any StageStrategy = VideoChatStrategy(),
    attributes: Attributes = [:]
) throws -> (stage: Stage, renderer: RecordingRenderer) {
    let stage = try Stage(token: simulation.token(for: name, attributes: attributes), strategy: strategy)
    let renderer = RecordingRenderer()
    stage.addRenderer(renderer)
    try simulation.add(stage)
    return (stage, renderer)
}

/// alice (with the returned strategy) and bob on one stage, both joined, after 2 s of virtual time.
func aliceAndBobJoined(seed: UInt64) throws -> (StageSimulation, VideoChatStrategy, (stage: Stage, renderer: RecordingRenderer), (stage: Stage, renderer: RecordingRenderer)) {
    let simulation = StageSimulation(seed: seed, stageId: "demo")
    let aliceStrategy = VideoChatStrategy()
    let alice = try addStage("alice", to: simulation, strategy: aliceStrategy)
    let bob = try addStage("bob", to: simulation)
    try alice.stage.join()
    try bob.stage.join()
    try simulation.run(for: .seconds(2))
    return (simulation, aliceStrategy, alice, bob)
}

@Suite("Stage SDK API in a seeded simulation")
struct StageSDKTests {
    @Test("video chat: each stage sees every other participant join, then its audio and video (STR-1, RND-2, RND-4)")
    func videoChat() throws {
        let simulation = StageSimulation(seed: 7, stageId: "demo")
        let names = ["alice", "bob", "carol"]
        let participants = try names.map { try addStage($0, to: simulation) }
        for participant in participants { try participant.stage.join() }

        try simulation.run(for: .seconds(2))

        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
        for (name, participant) in zip(names, participants) {
            let renderer = participant.renderer
            #expect(renderer.events.first == .connection(.connecting, nil))
            #expect(renderer.index(of: .connection(.connected, nil)) != nil)
            #expect(renderer.index(of: .publish(name, .published)) != nil)
            for other in names where other != name {
                let joined = try #require(renderer.index(of: .joined(other)), "\(name) never saw \(other) join")
                let added = try #require(renderer.firstAdd(of: other), "\(name) never got \(other)'s streams")
                #expect(joined < added)
                #expect(renderer.shownStreams[other] == [.audio, .video])
            }
        }
    }

    @Test("attribute-based strategy: guests never get the moderator's streams (STR-1, RND-4)")
    func moderatorInvisibleToGuests() throws {
        let simulation = StageSimulation(seed: 11, stageId: "panel")
        let moderator = try addStage("mod", to: simulation, strategy: RoleStrategy(), attributes: ["role": "moderator"])
        let guests = try ["guest1", "guest2"].map {
            try addStage($0, to: simulation, strategy: RoleStrategy(), attributes: ["role": "guest"])
        }
        try moderator.stage.join()
        for guest in guests { try guest.stage.join() }

        try simulation.run(for: .seconds(3))

        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
        for guest in guests {
            #expect(guest.renderer.shownStreams["mod"] == nil)
            #expect(guest.renderer.firstAdd(of: "mod") == nil)
            #expect(!guest.renderer.events.contains { if case .subscribe("mod", _) = $0 { true } else { false } })
        }
        #expect(moderator.renderer.shownStreams["guest1"] == [.audio, .video])
        #expect(moderator.renderer.shownStreams["guest2"] == [.audio, .video])
    }

    @Test("background mode: refreshStrategy stops publishing and keeps remote audio (STR-5, STR-6, STR-8)")
    func backgroundMode() throws {
        let (simulation, aliceStrategy, alice, bob) = try aliceAndBobJoined(seed: 3)
        #expect(alice.renderer.shownStreams["bob"] == [.audio, .video])
        let aliceMark = alice.renderer.events.count
        let bobMark = bob.renderer.events.count

        aliceStrategy.isInBackground = true
        alice.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))

        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
        let aliceAfter = Array(alice.renderer.events[aliceMark...])
        #expect(aliceAfter.contains(.publish("alice", .notPublished)))
        #expect(aliceAfter.contains(.removed("bob", [.video])))
        #expect(!aliceAfter.contains { if case .removed("bob", let kinds) = $0 { kinds.contains(.audio) } else { false } })
        #expect(alice.renderer.shownStreams["bob"] == [.audio])
        // Bob sees Alice stop publishing: her streams go, then she leaves (RND-2, RND-5).
        let removed = try #require(bob.renderer.index(of: .removed("alice", [.audio, .video]), from: bobMark))
        let left = try #require(bob.renderer.index(of: .left("alice"), from: bobMark))
        #expect(removed < left)
        #expect(bob.renderer.shownStreams["alice"] == nil)
    }

    @Test("leave removes every stream before participantDidLeave, locally and remotely (RND-3, RND-5)")
    func leaveRemovesStreams() throws {
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let names = ["alice", "bob", "carol"]
        let participants = try names.map { try addStage($0, to: simulation) }
        for participant in participants { try participant.stage.join() }
        try simulation.run(for: .seconds(2))
        let bob = participants[1]
        let marks = participants.map(\.renderer.events.count)

        bob.stage.leave()
        try simulation.run(for: .seconds(2))

        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
        for other in ["alice", "carol"] {
            let removed = try #require(bob.renderer.index(of: .removed(other, [.audio, .video]), from: marks[1]))
            let left = try #require(bob.renderer.index(of: .left(other), from: marks[1]))
            #expect(removed < left)
        }
        #expect(bob.renderer.shownStreams.isEmpty)
        #expect(bob.renderer.events.last == .connection(.disconnected, nil))
        for index in [0, 2] {
            let renderer = participants[index].renderer
            let removed = try #require(renderer.index(of: .removed("bob", [.audio, .video]), from: marks[index]))
            let left = try #require(renderer.index(of: .left("bob"), from: marks[index]))
            #expect(removed < left)
            #expect(renderer.shownStreams["bob"] == nil)
        }
    }

    @Test("determinism: the same seed gives the same trace hash, on a lossy, jittery network (NET-1)")
    func sameSeedSameTrace() throws {
        func run(seed: UInt64) throws -> (hash: UInt64, lines: String) {
            let network = LinkConditions(latencyMean: .milliseconds(40), jitterMax: .milliseconds(30), lossProbability: 0.2)
            let simulation = StageSimulation(seed: seed, stageId: "demo", network: network)
            let strategy = VideoChatStrategy()
            let participants = try ["alice", "bob", "carol"].map { name in
                try addStage(name, to: simulation, strategy: name == "alice" ? strategy : VideoChatStrategy())
            }
            for participant in participants { try participant.stage.join() }
            try simulation.run(for: .seconds(3))
            strategy.isInBackground = true
            participants[0].stage.refreshStrategy()
            participants[2].stage.leave()
            try simulation.run(for: .seconds(3))
            #expect(simulation.violations.isEmpty, "seed \(seed): \(simulation.violations)")
            #expect(simulation.trace.events.contains { $0.category == "lost" }, "seed \(seed) lost nothing")
            return (simulation.traceHash, simulation.trace.jsonLines)
        }
        let first = try run(seed: 42)
        let second = try run(seed: 42)
        #expect(first.hash == second.hash)
        #expect(first.lines == second.lines)
        #expect(try run(seed: 43).hash != first.hash)
    }

    @Test("mute reaches remote renderers at refreshStrategy; a new stream instance applies its own mute (LST-1, LST-2, RND-6)")
    func muteThroughRefresh() throws {
        let (simulation, aliceStrategy, alice, bob) = try aliceAndBobJoined(seed: 9)

        aliceStrategy.microphone.setMuted(true)
        alice.stage.refreshStrategy()
        try simulation.run(for: .seconds(1))
        #expect(bob.renderer.events.last == .muted("alice", [StageStream(participantId: "alice", kind: .audio, isMuted: true)]))

        aliceStrategy.microphone = LocalStageStream(kind: .audio)
        alice.stage.refreshStrategy()
        try simulation.run(for: .seconds(1))
        #expect(bob.renderer.events.last == .muted("alice", [StageStream(participantId: "alice", kind: .audio, isMuted: false)]))
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    @Test("setMuted reaches the stage at once, with no refreshStrategy; remote renderers hear it (LST-1, RND-6)")
    func muteIsInstant() throws {
        let (simulation, aliceStrategy, alice, bob) = try aliceAndBobJoined(seed: 9)
        let before = bob.renderer.events.count

        aliceStrategy.microphone.setMuted(true)
        try simulation.run(for: .seconds(1))
        #expect(Array(bob.renderer.events[before...]) == [.muted("alice", [StageStream(participantId: "alice", kind: .audio, isMuted: true)])])

        aliceStrategy.camera.setMuted(true)
        aliceStrategy.camera.setMuted(false)
        aliceStrategy.microphone.setMuted(false)
        try simulation.run(for: .seconds(1))
        #expect(Array(bob.renderer.events[before...]) == [
            .muted("alice", [StageStream(participantId: "alice", kind: .audio, isMuted: true)]),
            .muted("alice", [StageStream(participantId: "alice", kind: .video, isMuted: true)]),
            .muted("alice", [StageStream(participantId: "alice", kind: .video, isMuted: false)]),
            .muted("alice", [StageStream(participantId: "alice", kind: .audio, isMuted: false)]),
        ])
        #expect(!simulation.trace.events.contains { $0.kind == .hostCall(.refreshStrategy) })
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    @Test("a stream the strategy no longer returns mutes nothing; the one it returns mutes at once (LST-1, LST-2)")
    func muteOnlyCurrentStreams() throws {
        let (simulation, aliceStrategy, alice, bob) = try aliceAndBobJoined(seed: 9)
        let old = aliceStrategy.microphone
        aliceStrategy.microphone = LocalStageStream(kind: .audio)
        alice.stage.refreshStrategy()
        try simulation.run(for: .seconds(1))
        let before = bob.renderer.events.count

        old.setMuted(true)
        try simulation.run(for: .seconds(1))
        #expect(bob.renderer.events.count == before)

        aliceStrategy.microphone.setMuted(true)
        try simulation.run(for: .seconds(1))
        #expect(Array(bob.renderer.events[before...]) == [.muted("alice", [StageStream(participantId: "alice", kind: .audio, isMuted: true)])])
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    /// The trace names the instance of each returned stream (`LocalStreamNumbering`): a new
    /// object is a new instance, numbered from 1 in the order the strategy first returns it.
    @Test("each LocalStageStream object is its own instance, numbered from 1 in first-seen order (LST-2)")
    func streamObjectsAreNumbered() throws {
        let (simulation, aliceStrategy, alice, _) = try aliceAndBobJoined(seed: 9)
        func lastAudioInstance() -> UInt32? {
            simulation.trace.events.last { event in
                guard event.observer == "alice", case .strategyQueried(let report) = event.kind else { return false }
                return report.streamsReturned != nil
            }.flatMap { event in
                guard case .strategyQueried(let report) = event.kind else { return nil }
                return report.streamsReturned?.first { $0.kind == .audio }?.instance
            }
        }
        let first = try #require(lastAudioInstance())
        aliceStrategy.microphone = LocalStageStream(kind: .audio)
        alice.stage.refreshStrategy()
        try simulation.run(for: .seconds(1))
        let second = try #require(lastAudioInstance())
        #expect(first >= 1)
        #expect(second > first)
    }

    @Test("Stage(token:) throws for a token it cannot read; join() throws for an expired one and schedules nothing (STG-1, TOK-1)")
    func throwingAPI() throws {
        let simulation = StageSimulation(seed: 1, stageId: "demo")
        for unreadable in ["", "not a token", "a.b.c", "eyJhbGciOiJFUzM4NCJ9.e30.c2ln"] {
            #expect(throws: StageTokenError.malformed) { try Stage(token: unreadable, strategy: VideoChatStrategy()) }
        }
        let stage = try Stage(token: simulation.token(for: "eve", validFor: .seconds(1)), strategy: VideoChatStrategy())
        let renderer = RecordingRenderer()
        stage.addRenderer(renderer)
        try simulation.add(stage)
        try simulation.run(for: .seconds(2))

        #expect(throws: StageTokenError.expired(participantId: "eve", expiresAtSeconds: 1, nowSeconds: 2)) { try stage.join() }
        #expect(StageTokenError.expired(participantId: "eve", expiresAtSeconds: 1, nowSeconds: 2).code == .tokenExpired)
        try simulation.run(for: .seconds(1))
        #expect(renderer.events.isEmpty)
        #expect(!simulation.trace.events.contains { $0.kind == .hostCall(.join) })
        #expect(simulation.violations.isEmpty)
    }

    @Test("a token that expires on its way to the service is still refused there, as a connection error (STG-2, TOK-1)")
    func expiresInFlight() throws {
        let simulation = StageSimulation(seed: 1, stageId: "demo", network: LinkConditions(latencyMean: .milliseconds(600)))
        let stage = try Stage(token: simulation.token(for: "eve", validFor: .seconds(1)), strategy: VideoChatStrategy())
        let renderer = RecordingRenderer()
        stage.addRenderer(renderer)
        try simulation.add(stage)
        try simulation.run(for: .milliseconds(500))

        try stage.join()
        try simulation.run(for: .seconds(2))
        #expect(renderer.events == [.connection(.connecting, nil), .connection(.disconnected, .tokenExpired)])
        #expect(simulation.violations.isEmpty)
    }

    @Test("exchangeToken keeps the old token when the SDK or the service refuses the new one, and takes an accepted one (TOK-3, TOK-4, TOK-5)")
    func exchangeKeepsTokenWhenRefused() throws {
        let (simulation, _, alice, _) = try aliceAndBobJoined(seed: 3)
        let errors = ErrorRecorder()
        alice.stage.errorDelegate = errors
        let original = alice.stage.token

        alice.stage.exchangeToken(simulation.token(for: "mallory"))
        #expect(alice.stage.token == original)
        try simulation.run(for: .seconds(1))
        #expect(alice.stage.token == original)
        #expect(errors.codes == [.tokenNotAllowed])

        alice.stage.exchangeToken(simulation.token(for: "alice", userId: "alice-2", signedBy: .service))
        try simulation.run(for: .seconds(1))
        #expect(alice.stage.token == original)
        #expect(errors.codes.count == 2)

        let accepted = simulation.token(for: "alice", userId: "alice-3")
        alice.stage.exchangeToken(accepted)
        try simulation.run(for: .seconds(1))
        #expect(alice.stage.token == accepted)
        #expect(errors.codes.count == 2)
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    @Test("the 13th publisher's error reaches the error delegate as STAGE_AT_CAPACITY (STG-1, STG-4)")
    func capacityErrorDelegate() throws {
        let simulation = StageSimulation(seed: 2, stageId: "big")
        let delegates = (1...13).map { _ in ErrorRecorder() }
        var stages: [Stage] = []
        for (number, delegate) in zip(1..., delegates) {
            let stage = try Stage(token: simulation.token(for: "p\(number < 10 ? "0" : "")\(number)"), strategy: VideoChatStrategy())
            stage.errorDelegate = delegate
            try simulation.add(stage)
            stages.append(stage)
        }
        for stage in stages { try stage.join() }
        try simulation.run(for: .seconds(3))

        #expect(delegates.dropLast().allSatisfy { $0.codes.isEmpty })
        #expect(delegates.last?.codes == [.stageAtCapacity])
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    @Test("a renderer may leave from a callback; the leave happens at that event's virtual time")
    func leaveFromCallback() throws {
        final class LeaveWhenBobPublishes: StageRenderer {
            func stage(_ stage: Stage, participantDidJoin participant: ParticipantInfo) {
                if participant.participantId == "bob" { stage.leave() }
            }
        }
        let simulation = StageSimulation(seed: 4, stageId: "demo")
        let alice = try addStage("alice", to: simulation)
        alice.stage.addRenderer(LeaveWhenBobPublishes())
        let bob = try addStage("bob", to: simulation)
        try alice.stage.join()
        try simulation.run(for: .seconds(1))
        try bob.stage.join()
        try simulation.run(for: .seconds(2))

        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
        #expect(alice.renderer.events.last == .connection(.disconnected, nil))
        let bobInfo = try #require(TokenCodec.decodeUnverified(bob.stage.token)).participantInfo(isLocal: false)
        let bobJoined = try #require(simulation.trace.events.first {
            $0.observer == "alice" && $0.rendererEvent == .participantDidJoin(bobInfo)
        })
        let aliceLeave = try #require(simulation.trace.events.first { $0.observer == "alice" && $0.kind == .hostCall(.leave) })
        #expect(aliceLeave.time == bobJoined.time)
        #expect(bob.renderer.index(of: .left("alice")) != nil)
    }

    @Test("a strategy may read the simulation while it steps; re-entrant misuse throws")
    func strategyReadsSimulation() throws {
        final class NosyStrategy: StageStrategy {
            weak var simulation: StageSimulation?
            var errors: [StageSimulationError] = []
            var clockReadings: [UInt64] = []

            func stage(_ stage: Stage, shouldSubscribeToParticipant participant: ParticipantInfo) -> SubscribeType {
                guard let simulation else { return .none }
                clockReadings.append(simulation.world.now.nanoseconds)
                _ = (simulation.hasStarted, simulation.violations, simulation.traceHash)
                do { try simulation.run(for: .seconds(1)) } catch let error as StageSimulationError { errors.append(error) } catch {}
                do {
                    try simulation.add(Stage(token: simulation.token(for: "late"), strategy: VideoChatStrategy()))
                } catch let error as StageSimulationError { errors.append(error) } catch {}
                return .audioVideo
            }

            func stage(_ stage: Stage, shouldPublishParticipant participant: ParticipantInfo) -> Bool { true }

            func stage(_ stage: Stage, streamsToPublishForParticipant participant: ParticipantInfo) -> [LocalStageStream] {
                [LocalStageStream(kind: .audio)]
            }
        }
        let simulation = StageSimulation(seed: 6, stageId: "demo")
        let nosy = NosyStrategy()
        nosy.simulation = simulation
        let alice = try addStage("alice", to: simulation, strategy: nosy)
        let bob = try addStage("bob", to: simulation)
        try alice.stage.join()
        try bob.stage.join()
        try simulation.run(for: .seconds(2))

        #expect(!nosy.clockReadings.isEmpty)
        #expect(nosy.errors.first == .runInProgress)
        #expect(nosy.errors.dropFirst().first == .addedAfterStart(participantId: "late"))
        #expect(alice.renderer.shownStreams["bob"] == [.audio, .video])
        #expect(simulation.violations.isEmpty, "seed \(simulation.seed): \(simulation.violations)")
    }

    @Test("misuse is reported with clear errors, never a crash")
    func misuse() throws {
        let simulation = StageSimulation(seed: 1, stageId: "demo")
        try addStage("alice", to: simulation)
        #expect(throws: StageSimulationError.duplicateParticipant(participantId: "alice")) {
            try addStage("alice", to: simulation)
        }
        let stray = try Stage(token: simulation.token(for: "stray"), strategy: VideoChatStrategy())
        #expect(throws: StageSimulationError.stageNotAdded(participantId: "stray")) { try stray.join() }
        stray.leave()
        stray.refreshStrategy()

        try simulation.run(for: .seconds(1))
        #expect(throws: StageSimulationError.addedAfterStart(participantId: "stray")) { try simulation.add(stray) }
        let other = StageSimulation(seed: 1, stageId: "demo")
        let owned = try addStage("carol", to: other)
        #expect(throws: StageSimulationError.stageInAnotherSimulation(participantId: "carol")) {
            try simulation.add(owned.stage)
        }
        #expect(other.stages.map(\.participantId) == ["carol"])  // `other` stays alive until here
    }
}
