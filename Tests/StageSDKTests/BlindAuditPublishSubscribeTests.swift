import Foundation
import StageCore
import StageSDK
import StageWorld
import Testing

/// A blind audit of the IVS "Publishing and Subscribing" page (the German variant, read against
/// the English one): each test is a reviewer's case written from the page alone, through the
/// public Swift API only, before StageSim's own tests were read. Each names its spec rule.
@Suite("Blind audit: IVS publish and subscribe page")
struct BlindAuditPublishSubscribeTests {
    /// A strategy whose answers the test changes between refreshes, as the page's
    /// `hasUserTappedPublishButton` example does; it counts the questions it is asked.
    final class TunableStrategy: IVSStageStrategy {
        var publishes: Bool
        var streams: [IVSLocalStageStream]
        var subscribeAnswer: (IVSParticipantInfo) -> IVSStageSubscribeType
        private(set) var subscribeQuestions: [String] = []
        private(set) var publishQuestions = 0

        init(publishes: Bool, streams: [IVSLocalStageStream]? = nil, subscribe: IVSStageSubscribeType = .audioVideo) {
            self.publishes = publishes
            self.streams = streams ?? [IVSLocalStageStream(device: IVSMicrophone()), IVSLocalStageStream(device: IVSCamera())]
            self.subscribeAnswer = { _ in subscribe }
        }

        func stage(_ stage: IVSStage, shouldSubscribeToParticipant participant: IVSParticipantInfo) -> IVSStageSubscribeType {
            subscribeQuestions.append(participant.participantId)
            return subscribeAnswer(participant)
        }

        func stage(_ stage: IVSStage, shouldPublishParticipant participant: IVSParticipantInfo) -> Bool {
            publishQuestions += 1
            return publishes
        }

        func stage(_ stage: IVSStage, streamsToPublishForParticipant participant: IVSParticipantInfo) -> [IVSLocalStageStream] {
            streams
        }
    }

    /// Records every renderer callback as one line of text, in order.
    final class Recorder: IVSStageRenderer {
        private(set) var lines: [String] = []
        private(set) var joinedInfos: [IVSParticipantInfo] = []
        private(set) var addedObjects: [IVSStageStream] = []

        func stage(_ stage: IVSStage, participantDidJoin participant: IVSParticipantInfo) {
            joinedInfos.append(participant)
            lines.append("join \(participant.participantId)")
        }
        func stage(_ stage: IVSStage, participantDidLeave participant: IVSParticipantInfo) {
            lines.append("leave \(participant.participantId)")
        }
        func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didChange publishState: IVSParticipantPublishState) {
            lines.append("publish \(participant.participantId) \(publishState.rawValue)")
        }
        func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didChange subscribeState: IVSParticipantSubscribeState) {
            lines.append("subscribe \(participant.participantId) \(subscribeState.rawValue)")
        }
        func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didAdd streams: [IVSStageStream]) {
            addedObjects += streams
            lines.append("add \(participant.participantId) \(Self.text(streams))")
        }
        func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didRemove streams: [IVSStageStream]) {
            lines.append("remove \(participant.participantId) \(Self.text(streams))")
        }
        func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didChangeMutedStreams streams: [IVSStageStream]) {
            lines.append("muted \(participant.participantId) \(Self.text(streams))")
        }
        func stage(_ stage: IVSStage, didChange connectionState: IVSStageConnectionState, withError error: Error?) {
            lines.append("connection \(connectionState.rawValue)\(error.map { " \($0)" } ?? "")")
        }

        static func text(_ streams: [IVSStageStream]) -> String {
            "[" + streams.map { $0.kind.rawValue + ($0.isMuted ? "(muted)" : "") }.joined(separator: ",") + "]"
        }

        /// The lines about one participant.
        func about(_ participantId: String) -> [String] {
            lines.filter { $0.split(separator: " ").dropFirst().first.map(String.init) == participantId }
        }
    }

    /// A stage in the simulation with its strategy and one recorder.
    struct Member {
        let stage: IVSStage
        let strategy: TunableStrategy
        let recorder: Recorder
    }

    private func member(
        _ name: String, in simulation: StageSimulation, strategy: TunableStrategy,
        attributes: Attributes = [:], capabilities: Capabilities = Capabilities(), sdk: SDKKind? = nil,
        link: LinkConditions? = nil
    ) throws -> Member {
        let token = simulation.token(for: name, attributes: attributes, capabilities: capabilities)
        let stage = if let sdk { try IVSStage(token: token, strategy: strategy, sdk: sdk) } else { try IVSStage(token: token, strategy: strategy) }
        try simulation.add(stage, link: link)
        let recorder = Recorder()
        stage.addRenderer(recorder)
        return Member(stage: stage, strategy: strategy, recorder: recorder)
    }

    // MARK: Stage (S1..S4)

    @Test("S1 TOK-1: a token whose exp is now is refused at join with TOKEN_EXPIRED; one second earlier it joins")
    func expiredTokenBoundary() throws {
        let simulation = StageSimulation(seed: 1, stageId: "blind")
        let late = try IVSStage(token: simulation.token(for: "late", validFor: .seconds(10)), strategy: TunableStrategy(publishes: false))
        let early = try IVSStage(token: simulation.token(for: "early", validFor: .seconds(10)), strategy: TunableStrategy(publishes: false))
        let recorder = Recorder()
        late.addRenderer(recorder)
        try simulation.add(late)
        try simulation.add(early)
        try simulation.run(for: .seconds(9))
        try early.join()
        try simulation.run(for: .seconds(1))
        #expect(throws: StageTokenError.self) { try late.join() }
        do { try late.join() } catch let error as StageTokenError { #expect(error.code == .tokenExpired) }
        try simulation.run(for: .seconds(2))
        #expect(!recorder.lines.contains { $0.hasPrefix("connection connected") })
        #expect(simulation.violations.isEmpty)
    }

    @Test("S2 S3 STG-1 STG-2: two renderers get the same events; join connects, leave disconnects")
    func twoRenderersSameEvents() throws {
        let simulation = StageSimulation(seed: 2, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true))
        let second = Recorder()
        viewer.stage.addRenderer(second)
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(2))
        viewer.stage.leave()
        try simulation.run(for: .seconds(2))
        #expect(second.lines == viewer.recorder.lines)
        let connection = viewer.recorder.lines.filter { $0.hasPrefix("connection") }
        #expect(connection == ["connection connecting", "connection connected", "connection disconnected"])
        #expect(simulation.violations.isEmpty)
    }

    @Test("S3: a renderer added twice is called once per event")
    func rendererAddedTwice() throws {
        let simulation = StageSimulation(seed: 3, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        viewer.stage.addRenderer(viewer.recorder)
        try viewer.stage.join()
        try simulation.run(for: .seconds(1))
        // The local participant's own join (isLocal) is the model's documented reading of
        // "only publishing participants trigger participantDidJoin" (about remote participants).
        #expect(viewer.recorder.lines == ["connection connecting", "connection connected", "join viewer"])
    }

    /// Records what reaches a stage's error delegate.
    final class ErrorLog: IVSErrorDelegate {
        private(set) var errors: [StageError] = []
        func stage(_ stage: IVSStage, didEmitError error: StageError) { errors.append(error) }
    }

    @Test("S4 STG-1 STG-4: the error delegate attached as the page does hears why a publish failed")
    func errorDelegateHearsPublishError() throws {
        let simulation = StageSimulation(seed: 38, stageId: "blind")
        var members: [Member] = []
        for index in 1...13 {
            members.append(try member(String(format: "p%02d", index), in: simulation, strategy: TunableStrategy(publishes: true, streams: [IVSLocalStageStream(device: IVSMicrophone())])))
        }
        let logs = members.map { member in
            let log = ErrorLog()
            member.stage.errorDelegate = log
            return log
        }
        for member in members.prefix(12) { try member.stage.join() }
        try simulation.run(for: .seconds(3))
        try members[12].stage.join()
        try simulation.run(for: .seconds(3))
        #expect(logs.prefix(12).allSatisfy { $0.errors.isEmpty })
        #expect(logs[12].errors.map(\.code) == [.stageAtCapacity])
        #expect(logs[12].errors.first?.category == .publish)
        #expect(logs[12].errors.first?.isFatal == false)
        #expect(simulation.violations.isEmpty)
    }

    // MARK: Subscribing (S5..S9)

    @Test("S5 S7 S8 S20 STR-1 STR-2: asked when the remote joins; subscribes only once it publishes; subscribed before didAdd")
    func subscribeWaitsForPublish() throws {
        let simulation = StageSimulation(seed: 4, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: false))
        try viewer.stage.join()
        try simulation.run(for: .seconds(1))
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        #expect(viewer.strategy.subscribeQuestions.contains("host"))
        #expect(viewer.recorder.about("host").isEmpty)
        host.strategy.publishes = true
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(3))
        #expect(viewer.recorder.about("host") == [
            "join host", "publish host published", "subscribe host attemptingSubscribe",
            "subscribe host subscribed", "add host [audio,video]",
        ])
        #expect(simulation.violations.isEmpty)
    }

    @Test("S9 STR-1: role attributes decide: guests audioVideo, moderators and others none")
    func attributeBasedSubscribe() throws {
        let simulation = StageSimulation(seed: 5, stageId: "blind")
        let moderatorStrategy = TunableStrategy(publishes: false)
        moderatorStrategy.subscribeAnswer = { participant in
            switch participant.attributes["role"] {
            case "moderator": .none
            case "guest": .audioVideo
            default: .none
            }
        }
        let moderator = try member("mod1", in: simulation, strategy: moderatorStrategy, attributes: ["role": "moderator"])
        let guest = try member("guest", in: simulation, strategy: TunableStrategy(publishes: true), attributes: ["role": "guest"])
        let other = try member("mod2", in: simulation, strategy: TunableStrategy(publishes: true), attributes: ["role": "moderator"])
        let plain = try member("plain", in: simulation, strategy: TunableStrategy(publishes: true))
        for stage in [moderator, guest, other, plain] { try stage.stage.join() }
        try simulation.run(for: .seconds(4))
        #expect(moderator.recorder.lines.contains("add guest [audio,video]"))
        #expect(!moderator.recorder.about("mod2").contains { $0.hasPrefix("add") || $0.hasPrefix("subscribe") })
        #expect(!moderator.recorder.about("plain").contains { $0.hasPrefix("add") || $0.hasPrefix("subscribe") })
        #expect(!guest.recorder.about("mod1").contains { $0.hasPrefix("join") })
        #expect(simulation.violations.isEmpty)
    }

    // MARK: Publishing (S10..S15)

    @Test("S10 S11 STR-3: shouldPublish is never asked of a participant whose token forbids publishing")
    func noPublishQuestionWithoutCapability() throws {
        let simulation = StageSimulation(seed: 6, stageId: "blind")
        let strategy = TunableStrategy(publishes: true)
        let viewer = try member("viewer", in: simulation, strategy: strategy, capabilities: Capabilities(canPublish: false))
        let other = try member("other", in: simulation, strategy: TunableStrategy(publishes: false))
        try viewer.stage.join()
        try other.stage.join()
        try simulation.run(for: .seconds(2))
        viewer.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        #expect(strategy.publishQuestions == 0)
        #expect(!viewer.recorder.lines.contains { $0.hasPrefix("publish") })
        #expect(other.recorder.about("viewer").isEmpty)
    }

    @Test("S10 STR-3: shouldPublish is first asked once connected, never before")
    func publishQuestionAfterConnected() throws {
        let simulation = StageSimulation(seed: 7, stageId: "blind", network: LinkConditions(latencyMean: .milliseconds(200)))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true))
        try host.stage.join()
        try simulation.run(for: .milliseconds(100))
        #expect(host.strategy.publishQuestions == 0)
        try simulation.run(for: .seconds(3))
        #expect(host.strategy.publishQuestions >= 1)
        let connected = simulation.trace.events.firstIndex { $0.observer == "host" && $0.rendererEvent == .connectionStateChanged(.connected, nil) }
        let asked = simulation.trace.events.firstIndex { event in
            guard event.observer == "host", case .strategyQueried(let report) = event.kind else { return false }
            return report.askedShouldPublish
        }
        let connectedIndex = try #require(connected)
        let askedIndex = try #require(asked)
        #expect(askedIndex > connectedIndex)
    }

    @Test("S13 STR-4: streamsToPublish returning only a microphone publishes audio only")
    func audioOnlyPublish() throws {
        let simulation = StageSimulation(seed: 8, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true, streams: [IVSLocalStageStream(device: IVSMicrophone())]))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        #expect(viewer.recorder.about("host").filter { $0.hasPrefix("add") } == ["add host [audio]"])
    }

    @Test("S14 S15 STR-5: refreshes with unchanged answers emit nothing; a changed shouldPublish starts publishing")
    func refreshAppliesOnlyChanges() throws {
        let simulation = StageSimulation(seed: 9, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: false))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(2))
        let viewerBefore = viewer.recorder.lines
        let hostBefore = host.recorder.lines
        for _ in 0..<3 {
            host.stage.refreshStrategy()
            viewer.stage.refreshStrategy()
        }
        try simulation.run(for: .seconds(2))
        #expect(viewer.recorder.lines == viewerBefore)
        #expect(host.recorder.lines == hostBefore)
        host.strategy.publishes = true
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        let hostNew = Array(host.recorder.lines.dropFirst(hostBefore.count))
        #expect(hostNew.prefix(2) == ["publish host attemptingPublish", "publish host published"])
        #expect(viewer.recorder.lines.contains("add host [audio,video]"))
        #expect(simulation.violations.isEmpty)
    }

    @Test("S16 S23 STR-6: audioVideo -> audioOnly removes video only, only where the answer changed and video existed")
    func audioOnlyRemovesVideoWhereChanged() throws {
        let simulation = StageSimulation(seed: 10, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let alpha = try member("alpha", in: simulation, strategy: TunableStrategy(publishes: true))
        let beta = try member("beta", in: simulation, strategy: TunableStrategy(publishes: true))
        let gamma = try member("gamma", in: simulation, strategy: TunableStrategy(publishes: true, streams: [IVSLocalStageStream(device: IVSMicrophone())]))
        for stage in [viewer, alpha, beta, gamma] { try stage.stage.join() }
        try simulation.run(for: .seconds(3))
        let before = viewer.recorder.lines.count
        viewer.strategy.subscribeAnswer = { $0.participantId == "beta" ? .audioVideo : .audioOnly }
        viewer.stage.refreshStrategy()
        try simulation.run(for: .seconds(3))
        let after = Array(viewer.recorder.lines.dropFirst(before))
        #expect(after.filter { $0.hasPrefix("remove") } == ["remove alpha [video]"])
        #expect(!after.contains { $0.hasPrefix("leave") })
        #expect(!after.contains { $0.contains("beta") || $0.contains("gamma") })
        #expect(simulation.violations.isEmpty)
    }

    // MARK: Renderer (S19..S25)

    @Test("S19 RND-2: only publishing participants join; unpublish leaves; republish joins again; a non-publisher's leave is silent")
    func onlyPublishersJoin() throws {
        let simulation = StageSimulation(seed: 11, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: false))
        let quiet = try member("quiet", in: simulation, strategy: TunableStrategy(publishes: false))
        for stage in [viewer, host, quiet] { try stage.stage.join() }
        try simulation.run(for: .seconds(2))
        #expect(viewer.recorder.about("host").isEmpty)
        host.strategy.publishes = true
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        host.strategy.publishes = false
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        host.strategy.publishes = true
        host.stage.refreshStrategy()
        quiet.stage.leave()
        try simulation.run(for: .seconds(2))
        let joinsAndLeaves = viewer.recorder.about("host").filter { $0.hasPrefix("join") || $0.hasPrefix("leave") }
        #expect(joinsAndLeaves == ["join host", "leave host", "join host"])
        #expect(viewer.recorder.about("quiet").isEmpty)
        #expect(simulation.violations.isEmpty)
    }

    @Test("S19 RND-2: a publisher the viewer answers none for still joins, with no streams")
    func publisherJoinsEvenUnsubscribed() throws {
        let simulation = StageSimulation(seed: 12, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false, subscribe: .none))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        #expect(viewer.recorder.about("host").contains("join host"))
        #expect(!viewer.recorder.about("host").contains { $0.hasPrefix("add") })
    }

    @Test("S21 S24 RND-5: remote stops publishing -> didRemove before leave; remote leaves -> didRemove before leave")
    func removalOnRemoteUnpublishAndLeave() throws {
        let simulation = StageSimulation(seed: 13, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        host.strategy.publishes = false
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        #expect(Self.removedThenLeft(viewer.recorder.about("host")))
        host.strategy.publishes = true
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        host.stage.leave()
        try simulation.run(for: .seconds(2))
        let sinceRepublish = viewer.recorder.about("host").split(separator: "join host").last.map(Array.init) ?? []
        #expect(Self.removedThenLeft(sinceRepublish))
        #expect(simulation.violations.isEmpty)
    }

    /// The page orders only didRemoveStreams before participantDidLeave (which ends the list);
    /// the subscribe and publish state changes in between are not the page's to order.
    private static func removedThenLeft(_ lines: [String]) -> Bool {
        guard let remove = lines.lastIndex(of: "remove host [audio,video]"), lines.last == "leave host" else { return false }
        return !lines[remove...].contains { $0.hasPrefix("add") || $0.hasPrefix("join") }
    }

    @Test("S22 S25 RND-5: local unsubscribe removes the streams; local leave removes every stream still added")
    func removalOnLocalUnsubscribeAndLeave() throws {
        let simulation = StageSimulation(seed: 14, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let first = try member("first", in: simulation, strategy: TunableStrategy(publishes: true))
        let second = try member("second", in: simulation, strategy: TunableStrategy(publishes: true))
        for stage in [viewer, first, second] { try stage.stage.join() }
        try simulation.run(for: .seconds(3))
        viewer.strategy.subscribeAnswer = { $0.participantId == "first" ? .none : .audioVideo }
        viewer.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        #expect(viewer.recorder.about("first").contains("remove first [audio,video]"))
        #expect(!viewer.recorder.about("first").contains("leave first"))
        viewer.stage.leave()
        try simulation.run(for: .seconds(2))
        let removes = viewer.recorder.lines.filter { $0.hasPrefix("remove") }
        #expect(removes == ["remove first [audio,video]", "remove second [audio,video]"])
        #expect(viewer.recorder.lines.last == "connection disconnected")
        #expect(simulation.violations.isEmpty)
    }

    // MARK: Mute (S12, S26..S29)

    @Test("S26 S27 S29 LST-1 RND-6: muted before return arrives muted; a change lists only the changed stream; a repeat is silent")
    func muteBeforeAndAfter() throws {
        let simulation = StageSimulation(seed: 15, stageId: "blind")
        let microphone = IVSLocalStageStream(device: IVSMicrophone())
        let camera = IVSLocalStageStream(device: IVSCamera())
        camera.setMuted(true)
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true, streams: [microphone, camera]))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        #expect(viewer.recorder.about("host").contains("add host [audio,video(muted)]"))
        microphone.setMuted(true)
        try simulation.run(for: .seconds(1))
        microphone.setMuted(true)
        try simulation.run(for: .seconds(1))
        camera.setMuted(false)
        try simulation.run(for: .seconds(1))
        let mutes = viewer.recorder.about("host").filter { $0.hasPrefix("muted") }
        #expect(mutes == ["muted host [audio(muted)]", "muted host [video]"])
        #expect(!viewer.recorder.about("host").contains { $0.hasPrefix("remove") || $0.hasPrefix("leave") })
        let objects = viewer.recorder.addedObjects.filter { $0.participantId == "host" }
        #expect(objects.map(\.isMuted) == [true, false])
        #expect(simulation.violations.isEmpty)
    }

    @Test("S28 LST-2: a new unmuted instance returned after refresh replaces a muted one's state")
    func newInstanceAppliesItsMuteState() throws {
        let simulation = StageSimulation(seed: 16, stageId: "blind")
        let mutedMicrophone = IVSLocalStageStream(device: IVSMicrophone())
        mutedMicrophone.setMuted(true)
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true, streams: [mutedMicrophone]))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        #expect(viewer.recorder.about("host").contains("add host [audio(muted)]"))
        host.strategy.streams = [IVSLocalStageStream(device: IVSMicrophone())]
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        let audio = viewer.recorder.addedObjects.last { $0.participantId == "host" }
        #expect(audio?.isMuted == false)
        mutedMicrophone.setMuted(false)
        mutedMicrophone.setMuted(true)
        try simulation.run(for: .seconds(1))
        #expect(viewer.recorder.addedObjects.last { $0.participantId == "host" }?.isMuted == false)
        #expect(simulation.violations.isEmpty)
    }

    @Test("S27 RND-6: a viewer that joins after a mute sees the stream muted at didAdd; one away during an unmute sees it unmuted on return")
    func lateViewerSeesCurrentMute() throws {
        let simulation = StageSimulation(seed: 17, stageId: "blind")
        let microphone = IVSLocalStageStream(device: IVSMicrophone())
        let early = try member("early", in: simulation, strategy: TunableStrategy(publishes: false))
        let late = try member("late", in: simulation, strategy: TunableStrategy(publishes: false), sdk: .web(SemanticVersion(1, 20, 0)))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true, streams: [microphone]))
        try early.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        microphone.setMuted(true)
        try simulation.run(for: .seconds(1))
        try late.stage.join()
        try simulation.run(for: .seconds(3))
        #expect(early.recorder.about("host").contains("muted host [audio(muted)]"))
        #expect(late.recorder.about("host").contains("add host [audio(muted)]"))
        #expect(!late.recorder.about("host").contains { $0.hasPrefix("muted") })
        early.stage.leave()
        try simulation.run(for: .seconds(2))
        microphone.setMuted(false)
        try simulation.run(for: .seconds(1))
        try early.stage.join()
        try simulation.run(for: .seconds(3))
        #expect(early.recorder.about("host").last == "add host [audio]")
        #expect(simulation.violations.isEmpty)
    }

    @Test("S12 RND-6: observers on different SDKs hear the same mute")
    func muteAcrossSDKs() throws {
        let simulation = StageSimulation(seed: 18, stageId: "blind")
        let camera = IVSLocalStageStream(device: IVSCamera())
        let old = try member("old", in: simulation, strategy: TunableStrategy(publishes: false), sdk: .mobile(SemanticVersion(1, 36, 0)))
        let web = try member("web", in: simulation, strategy: TunableStrategy(publishes: false), sdk: .web(SemanticVersion(1, 20, 0)))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true, streams: [camera]))
        for stage in [old, web, host] { try stage.stage.join() }
        try simulation.run(for: .seconds(3))
        camera.setMuted(true)
        try simulation.run(for: .seconds(1))
        #expect(old.recorder.about("host") == web.recorder.about("host"))
        #expect(old.recorder.about("host").last == "muted host [video(muted)]")
    }

    // MARK: Configuration, statistics, attributes, background (S30..S35)

    @Test("S30 LST-3: the page's configuration is accepted; an invalid value throws and keeps the old one")
    func videoConfiguration() throws {
        let config = IVSLocalStageStreamVideoConfiguration()
        try config.setMaxBitrate(900_000)
        try config.setMinBitrate(100_000)
        try config.setTargetFramerate(30)
        try config.setSize(CGSize(width: 360, height: 640))
        config.degradationPreference = .balanced
        #expect(config.configuration.maxBitrateBitsPerSecond == 900_000)
        #expect(throws: VideoConfigurationError.self) { try config.setTargetFramerate(0) }
        #expect(throws: VideoConfigurationError.self) { try config.setMinBitrate(1_000_000) }
        #expect(config.configuration.minBitrateBitsPerSecond == 100_000)
        #expect(IVSLocalStageStreamVideoConfiguration().simulcast.enabled)
    }

    @Test("S31 LST-5: requestRTCStats on a subscribed stream reaches the delegate; after removal it throws")
    func rtcStatsOnSubscribedStream() throws {
        final class StatsDelegate: IVSStageStreamDelegate {
            var reports: [[String: [String: String]]] = []
            func stream(_ stream: IVSStageStream, didGenerateRTCStats stats: [String: [String: String]]) { reports.append(stats) }
        }
        let simulation = StageSimulation(seed: 19, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        let stream = try #require(viewer.recorder.addedObjects.first)
        let delegate = StatsDelegate()
        stream.delegate = delegate
        try stream.requestRTCStats()
        try simulation.run(for: .milliseconds(100))
        #expect(delegate.reports.count == 1)
        #expect(!(delegate.reports.first ?? [:]).isEmpty)
        let own = host.stage.requestRTCStats(for: StageStream(participantId: "host", kind: .video))
        #expect(own?.isEmpty == false)
        host.stage.leave()
        try simulation.run(for: .seconds(2))
        #expect(throws: StageStreamError.self) { try stream.requestRTCStats() }
    }

    @Test("S32: the token's attributes and participantId arrive with participantDidJoin")
    func attributesAtJoin() throws {
        let simulation = StageSimulation(seed: 20, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        _ = try member("host", in: simulation, strategy: TunableStrategy(publishes: true), attributes: ["role": "guest", "seat": "3"])
        try viewer.stage.join()
        try simulation.stages.first { $0.participantId == "host" }?.join()
        try simulation.run(for: .seconds(3))
        let info = try #require(viewer.recorder.joinedInfos.first { $0.participantId == "host" })
        #expect(info.attributes["role"] == "guest")
        #expect(Array(info.attributes).map { "\($0.key)=\($0.value)" } == ["role=guest", "seat=3"])
        #expect(!info.isLocal)
    }

    @Test("S33 STR-8: background: stop publishing and audioOnly; remote audio stays, video goes")
    func backgroundMode() throws {
        let simulation = StageSimulation(seed: 21, stageId: "blind")
        let app = try member("app", in: simulation, strategy: TunableStrategy(publishes: true))
        let other = try member("other", in: simulation, strategy: TunableStrategy(publishes: true))
        try app.stage.join()
        try other.stage.join()
        try simulation.run(for: .seconds(3))
        let before = app.recorder.lines.count
        app.strategy.publishes = false
        app.strategy.subscribeAnswer = { _ in .audioOnly }
        app.stage.refreshStrategy()
        try simulation.run(for: .seconds(3))
        let after = Array(app.recorder.lines.dropFirst(before))
        #expect(after.contains("remove other [video]"))
        #expect(!after.contains { $0.hasPrefix("remove other [audio") || $0 == "leave other" })
        #expect(after.contains("publish app notPublished"))
        #expect(other.recorder.about("app").suffix(1) == ["leave app"])
        #expect(simulation.violations.isEmpty)
    }

    @Test("S34 LST-4: with simulcast on by default a viewer on a thin downlink still receives the video")
    func simulcastThinDownlink() throws {
        let simulation = StageSimulation(seed: 22, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false),
                                link: LinkConditions(downlinkBitsPerSecond: 400_000))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        #expect(viewer.recorder.about("host").contains("add host [audio,video]"))
        #expect(simulation.violations.isEmpty)
    }

    // MARK: More edge cases a careful reviewer adds

    @Test("S14 STR-5 STR-6: audioOnly back to audioVideo adds only the video; none to audioOnly adds only audio")
    func upgradeAddsOnlyTheDifference() throws {
        let simulation = StageSimulation(seed: 24, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false, subscribe: .none))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        #expect(!viewer.recorder.about("host").contains { $0.hasPrefix("add") })
        viewer.strategy.subscribeAnswer = { _ in .audioOnly }
        viewer.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        viewer.strategy.subscribeAnswer = { _ in .audioVideo }
        viewer.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        let streams = viewer.recorder.about("host").filter { $0.hasPrefix("add") || $0.hasPrefix("remove") }
        #expect(streams == ["add host [audio]", "add host [video]"])
        #expect(simulation.violations.isEmpty)
    }

    @Test("RND-4 RND-6: an audioOnly viewer never hears of the video stream, not even its mute")
    func audioOnlyViewerNeverSeesVideoMute() throws {
        let simulation = StageSimulation(seed: 25, stageId: "blind")
        let camera = IVSLocalStageStream(device: IVSCamera())
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false, subscribe: .audioOnly))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true, streams: [IVSLocalStageStream(device: IVSMicrophone()), camera]))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        camera.setMuted(true)
        try simulation.run(for: .seconds(1))
        camera.setMuted(false)
        try simulation.run(for: .seconds(1))
        #expect(!viewer.recorder.about("host").contains { $0.contains("video") })
        #expect(viewer.recorder.about("host").contains("add host [audio]"))
        #expect(simulation.violations.isEmpty)
    }

    @Test("RND-3 RND-6: a mute made while the viewer is still subscribing shows in didAdd, never before it")
    func muteDuringSubscribe() throws {
        let simulation = StageSimulation(seed: 26, stageId: "blind", network: LinkConditions(latencyMean: .milliseconds(150)))
        let microphone = IVSLocalStageStream(device: IVSMicrophone())
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true, streams: [microphone]))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .milliseconds(450))
        microphone.setMuted(true)
        try simulation.run(for: .seconds(3))
        let lines = viewer.recorder.about("host")
        let added = try #require(lines.firstIndex { $0.hasPrefix("add") })
        #expect(!lines[..<added].contains { $0.hasPrefix("muted") })
        let lastAudio = viewer.recorder.addedObjects.last { $0.participantId == "host" }
        #expect(lastAudio?.isMuted == true)
        #expect(simulation.violations.isEmpty)
    }

    @Test("LST-1 RND-6: mute and unmute at one instant leave the viewer with the stream unmuted")
    func muteAndUnmuteAtOnce() throws {
        let simulation = StageSimulation(seed: 27, stageId: "blind")
        let microphone = IVSLocalStageStream(device: IVSMicrophone())
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true, streams: [microphone]))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        microphone.setMuted(true)
        microphone.setMuted(false)
        try simulation.run(for: .seconds(2))
        #expect(viewer.recorder.addedObjects.last { $0.participantId == "host" }?.isMuted == false)
        let mutes = viewer.recorder.about("host").filter { $0.hasPrefix("muted") }
        #expect(mutes.last.map { $0 == "muted host [audio]" } ?? true)
        #expect(simulation.violations.isEmpty)
    }

    @Test("STR-4 STR-5 RND-5: dropping the camera from streamsToPublish removes only the video at the viewer")
    func droppingTheCamera() throws {
        let simulation = StageSimulation(seed: 28, stageId: "blind")
        let microphone = IVSLocalStageStream(device: IVSMicrophone())
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true, streams: [microphone, IVSLocalStageStream(device: IVSCamera())]))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        let before = viewer.recorder.lines.count
        host.strategy.streams = [microphone]
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(3))
        let after = Array(viewer.recorder.lines.dropFirst(before))
        #expect(after.contains("remove host [video]"))
        #expect(!after.contains { $0.hasPrefix("remove host [audio") })
        #expect(simulation.violations.isEmpty)
    }

    @Test("STR-5: publish withdrawn and given back at one instant ends published, seen by the viewer")
    func flipFlopAtOneInstant() throws {
        let simulation = StageSimulation(seed: 29, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        host.strategy.publishes = false
        host.stage.refreshStrategy()
        host.strategy.publishes = true
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(4))
        #expect(host.recorder.about("host").filter { $0.hasPrefix("publish") }.last == "publish host published")
        let joins = viewer.recorder.about("host").filter { $0.hasPrefix("join") }.count
        let leaves = viewer.recorder.about("host").filter { $0.hasPrefix("leave") }.count
        #expect(joins == leaves + 1)
        #expect(viewer.recorder.about("host").last == "add host [audio,video]" || !viewer.recorder.about("host").contains("leave host"))
        #expect(simulation.violations.isEmpty)
    }

    @Test("STR-2 STR-7: an answer changed to none before the remote publishes means no subscription when it does")
    func noneBeforePublish() throws {
        let simulation = StageSimulation(seed: 30, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: false))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(2))
        viewer.strategy.subscribeAnswer = { _ in .none }
        viewer.stage.refreshStrategy()
        try simulation.run(for: .seconds(1))
        host.strategy.publishes = true
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(3))
        #expect(viewer.recorder.about("host").contains("join host"))
        #expect(!viewer.recorder.about("host").contains { $0.hasPrefix("add") || $0.hasPrefix("subscribe") })
        #expect(simulation.violations.isEmpty)
    }

    @Test("RND-2 RND-5: observers on mobile 1.36, mobile 1.37 and web see the same join, streams and leave")
    func sameLifecycleAcrossSDKs() throws {
        let simulation = StageSimulation(seed: 31, stageId: "blind")
        let old = try member("old", in: simulation, strategy: TunableStrategy(publishes: false), sdk: .mobile(SemanticVersion(1, 36, 0)))
        let new = try member("new", in: simulation, strategy: TunableStrategy(publishes: false))
        let web = try member("web", in: simulation, strategy: TunableStrategy(publishes: false), sdk: .web(SemanticVersion(1, 20, 0)))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true))
        for stage in [old, new, web, host] { try stage.stage.join() }
        try simulation.run(for: .seconds(3))
        host.stage.leave()
        try simulation.run(for: .seconds(2))
        #expect(old.recorder.about("host") == new.recorder.about("host"))
        #expect(web.recorder.about("host") == new.recorder.about("host"))
        #expect(new.recorder.about("host").first == "join host")
        #expect(new.recorder.about("host").last == "leave host")
    }

    @Test("S1 TOK-1 STG-2: a token that expires while the join is in flight never connects; the renderer hears TOKEN_EXPIRED")
    func tokenExpiresInFlight() throws {
        let simulation = StageSimulation(seed: 32, stageId: "blind", network: LinkConditions(latencyMean: .milliseconds(100)))
        let token = simulation.token(for: "late", validFor: .seconds(10))
        let late = try IVSStage(token: token, strategy: TunableStrategy(publishes: true))
        let recorder = Recorder()
        late.addRenderer(recorder)
        try simulation.add(late)
        try simulation.run(for: .milliseconds(9_950))
        try late.join()
        try simulation.run(for: .seconds(40))
        #expect(!recorder.lines.contains("connection connected"))
        #expect(recorder.lines.contains { $0.hasPrefix("connection") && $0.contains("TOKEN_EXPIRED") })
        #expect(simulation.violations.isEmpty)
    }

    @Test("STR-5: a strategy changed and refreshed while still connecting is applied once connected")
    func refreshWhileConnecting() throws {
        let simulation = StageSimulation(seed: 33, stageId: "blind", network: LinkConditions(latencyMean: .milliseconds(100)))
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: false))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .milliseconds(50))
        host.strategy.publishes = true
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(4))
        #expect(host.recorder.about("host").filter { $0.hasPrefix("publish") }.last == "publish host published")
        #expect(viewer.recorder.about("host").contains("add host [audio,video]"))
        #expect(simulation.violations.isEmpty)
    }

    @Test("STG-1 RND-5: leave and join again at one instant: every stream removed once, then added again")
    func leaveAndRejoinAtOnce() throws {
        let simulation = StageSimulation(seed: 34, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        viewer.stage.leave()
        try viewer.stage.join()
        try simulation.run(for: .seconds(4))
        let streams = viewer.recorder.about("host").filter { $0.hasPrefix("add") || $0.hasPrefix("remove") }
        #expect(streams == ["add host [audio,video]", "remove host [audio,video]", "add host [audio,video]"])
        #expect(viewer.recorder.lines.filter { $0.hasPrefix("connection") }.last == "connection connected")
        #expect(simulation.violations.isEmpty)
    }

    /// Follows each remote stream's mute state through didAdd, didChangeMutedStreams and
    /// didRemove, and records every muted event that names a stream whose state did not change.
    final class MuteLedger: IVSStageRenderer {
        private var known: [String: Bool] = [:]
        private(set) var unchangedReports: [String] = []
        private(set) var reportsOfUnknownStreams: [String] = []

        private func key(_ stream: IVSStageStream) -> String { "\(stream.participantId)/\(stream.kind.rawValue)" }

        func state(of participantId: String, _ kind: MediaKind) -> Bool? { known["\(participantId)/\(kind.rawValue)"] }

        func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didAdd streams: [IVSStageStream]) {
            for stream in streams { known[key(stream)] = stream.isMuted }
        }
        func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didRemove streams: [IVSStageStream]) {
            for stream in streams { known[key(stream)] = nil }
        }
        func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didChangeMutedStreams streams: [IVSStageStream]) {
            for stream in streams {
                guard let before = known[key(stream)] else { reportsOfUnknownStreams.append(key(stream)); continue }
                if before == stream.isMuted { unchangedReports.append("\(key(stream)) \(stream.isMuted)") }
                known[key(stream)] = stream.isMuted
            }
        }
    }

    @Test("RND-6 LST-1: on a lossy, jittery network, didChangeMutedStreams names only streams that changed, and the viewer ends with the publisher's state", arguments: 1...12)
    func muteReportsOnALossyNetwork(seed: UInt64) throws {
        let lossy = LinkConditions(latencyMean: .milliseconds(40), jitterMax: .milliseconds(60), lossProbability: 0.2, duplicationProbability: 0.1, reorderProbability: 0.2)
        let simulation = StageSimulation(seed: seed, stageId: "blind", network: lossy)
        let microphone = IVSLocalStageStream(device: IVSMicrophone())
        let camera = IVSLocalStageStream(device: IVSCamera())
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true, streams: [microphone, camera]))
        let ledger = MuteLedger()
        viewer.stage.addRenderer(ledger)
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        let toggles: [(IVSLocalStageStream, Bool, UInt64)] = [
            (microphone, true, 0), (camera, true, 30), (microphone, false, 0), (microphone, true, 200),
            (camera, false, 10), (camera, true, 0), (microphone, false, 500), (camera, false, 20),
        ]
        for (stream, muted, gapMilliseconds) in toggles {
            stream.setMuted(muted)
            try simulation.run(for: .milliseconds(gapMilliseconds))
        }
        try simulation.run(for: .seconds(10))
        #expect(ledger.unchangedReports.isEmpty)
        #expect(ledger.reportsOfUnknownStreams.isEmpty)
        #expect(ledger.state(of: "host", .audio) == microphone.isMuted)
        #expect(ledger.state(of: "host", .video) == camera.isMuted)
        #expect(simulation.violations.isEmpty)
    }

    @Test("STR-6: a muted video stream existed, so audioOnly removes it too")
    func downgradeRemovesMutedVideo() throws {
        let simulation = StageSimulation(seed: 35, stageId: "blind")
        let camera = IVSLocalStageStream(device: IVSCamera())
        camera.setMuted(true)
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true, streams: [IVSLocalStageStream(device: IVSMicrophone()), camera]))
        try viewer.stage.join()
        try host.stage.join()
        try simulation.run(for: .seconds(3))
        viewer.strategy.subscribeAnswer = { _ in .audioOnly }
        viewer.stage.refreshStrategy()
        try simulation.run(for: .seconds(2))
        #expect(viewer.recorder.about("host").filter { $0.hasPrefix("remove") } == ["remove host [video(muted)]"])
        #expect(simulation.violations.isEmpty)
    }

    @Test("STR-6 RND-4: audioOnly chosen while the subscription is still being set up: no video is ever added")
    func downgradeWhileSubscribing() throws {
        let simulation = StageSimulation(seed: 36, stageId: "blind", network: LinkConditions(latencyMean: .milliseconds(150)))
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: false))
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: true))
        try viewer.stage.join()
        try host.stage.join()
        for _ in 0..<40 {
            try simulation.run(for: .milliseconds(25))
            if viewer.recorder.lines.contains("subscribe host attemptingSubscribe") { break }
        }
        #expect(viewer.recorder.lines.last == "subscribe host attemptingSubscribe")
        viewer.strategy.subscribeAnswer = { _ in .audioOnly }
        viewer.stage.refreshStrategy()
        try simulation.run(for: .seconds(3))
        let streams = viewer.recorder.about("host").filter { $0.hasPrefix("add") || $0.hasPrefix("remove") }
        #expect(streams.allSatisfy { !$0.contains("video") } || streams == ["add host [audio,video]", "remove host [video]"])
        #expect(streams.first.map { $0.hasPrefix("add host [audio") } ?? false)
        #expect(simulation.violations.isEmpty)
    }

    @Test("STR-5: a changed answer without refreshStrategy changes nothing, even when a new remote arrives and publishes")
    func noRefreshNoChange() throws {
        let simulation = StageSimulation(seed: 37, stageId: "blind")
        let host = try member("host", in: simulation, strategy: TunableStrategy(publishes: false))
        let first = try member("first", in: simulation, strategy: TunableStrategy(publishes: true))
        let second = try member("second", in: simulation, strategy: TunableStrategy(publishes: true))
        try host.stage.join()
        try first.stage.join()
        try simulation.run(for: .seconds(3))
        host.strategy.publishes = true
        host.strategy.subscribeAnswer = { _ in .none }
        try second.stage.join()
        try simulation.run(for: .seconds(3))
        #expect(!host.recorder.about("host").contains { $0.hasPrefix("publish") })
        #expect(first.recorder.about("host").isEmpty)
        #expect(!host.recorder.about("first").contains { $0.hasPrefix("remove") })
        // The new remote is asked about when it arrives, so the new answer (none) applies to it.
        #expect(!host.recorder.about("second").contains { $0.hasPrefix("add") })
        host.stage.refreshStrategy()
        try simulation.run(for: .seconds(3))
        #expect(host.recorder.about("first").contains("remove first [audio,video]"))
        #expect(first.recorder.about("host").contains("join host"))
        #expect(simulation.violations.isEmpty)
    }

    // MARK: Calls in the wrong state

    @Test("STG-1 STR-5: leave and refresh before join do nothing; a second leave does nothing")
    func callsInTheWrongState() throws {
        let simulation = StageSimulation(seed: 23, stageId: "blind")
        let viewer = try member("viewer", in: simulation, strategy: TunableStrategy(publishes: true))
        viewer.stage.leave()
        viewer.stage.refreshStrategy()
        try simulation.run(for: .seconds(1))
        #expect(viewer.recorder.lines.isEmpty)
        #expect(viewer.strategy.publishQuestions == 0)
        try viewer.stage.join()
        try simulation.run(for: .seconds(2))
        viewer.stage.leave()
        try simulation.run(for: .seconds(1))
        let count = viewer.recorder.lines.count
        viewer.stage.leave()
        try simulation.run(for: .seconds(1))
        #expect(viewer.recorder.lines.count == count)
        #expect(simulation.violations.isEmpty)
    }
}
