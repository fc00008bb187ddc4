import Testing
@testable import StageCore

/// A strategy for tests: one answer for everyone, publish on or off.
struct FixedStrategy: StrategyAnswers {
    var answer: SubscribeType
    var publish = false
    func shouldSubscribe(to participant: ParticipantInfo) -> SubscribeType { answer }
    func shouldPublish(_ participant: ParticipantInfo) -> Bool { publish }
    func streamsToPublish(for participant: ParticipantInfo) -> [LocalStream] { [LocalStream(kind: .audio), LocalStream(kind: .video)] }
}

/// A connected view with one remote `bob`, publishing audio and video, subscribed as `answer`.
func subscribedView(_ answer: SubscribeType) -> StageView {
    var view = StageView(local: ParticipantInfo(participantId: "me", isLocal: true))
    view.local.connectionState = .connected
    var bob = RemoteParticipant(info: ParticipantInfo(participantId: "bob"), answer: answer)
    bob.publishedStreams = [StageStream(participantId: "bob", kind: .audio), StageStream(participantId: "bob", kind: .video)]
    bob.announced = true
    let index = view.upsert(bob)
    var plan = ReconcilePlan()
    Reconciler.reconcileRemote(&view, at: index, canSubscribe: true, into: &plan)
    _ = Reconciler.subscriptionConfirmed(&view, participantId: "bob")
    return view
}

@Suite("Reconciler")
struct ReconcilerTests {
    @Test("StageView.upsert replaces a remote with the same id, the last in id order too")
    func upsertReplaces() {
        var view = StageView(local: ParticipantInfo(participantId: "me", isLocal: true))
        for id in ["bob", "alice"] { view.upsert(RemoteParticipant(info: ParticipantInfo(participantId: id), answer: .none)) }
        #expect(view.upsert(RemoteParticipant(info: ParticipantInfo(participantId: "bob", userId: "bob-2"), answer: .audioVideo)) == 1)
        #expect(view.remotes.map(\.info.participantId) == ["alice", "bob"])
        #expect(view["bob"]?.info.userId == "bob-2")
        #expect(view["bob"]?.answer == .audioVideo)
    }

    @Test("STR-5: a refresh with unchanged answers emits no command and no event")
    func unchangedRefresh() {
        var view = subscribedView(.audioVideo)
        let before = view
        let plan = Reconciler.refresh(&view, strategy: FixedStrategy(answer: .audioVideo))
        #expect(plan.isEmpty)
        #expect(view == before)
    }

    @Test("STR-6: audioVideo -> audioOnly removes only the video stream")
    func downgrade() {
        var view = subscribedView(.audioVideo)
        let plan = Reconciler.refresh(&view, strategy: FixedStrategy(answer: .audioOnly))
        #expect(plan.commands == [.downgradeToAudioOnly(participantId: "bob")])
        #expect(plan.events == [.didRemoveStreams(ParticipantInfo(participantId: "bob"), [StageStream(participantId: "bob", kind: .video)])])
        #expect(view["bob"]?.addedStreams.map(\.kind) == [.audio])
        #expect(view["bob"]?.subscribeState == .subscribed)
    }

    @Test("STR-2: an answer for a participant that does not publish yet waits")
    func waitsForPublish() {
        var view = StageView(local: ParticipantInfo(participantId: "me", isLocal: true))
        view.local.connectionState = .connected
        view.upsert(RemoteParticipant(info: ParticipantInfo(participantId: "bob"), answer: .none))
        let plan = Reconciler.refresh(&view, strategy: FixedStrategy(answer: .audioVideo))
        #expect(plan.commands.isEmpty)
        #expect(view["bob"]?.answer == .audioVideo)
        #expect(view["bob"]?.requested == SubscribeType.none)
    }

    @Test("RND-4: a confirmed audioOnly subscription adds audio, never video")
    func audioOnlyAdds() {
        let view = subscribedView(.audioOnly)
        #expect(view["bob"]?.addedStreams.map(\.kind) == [.audio])
        #expect(view["bob"]?.subscribeState == .subscribed)
    }

    @Test("RND-5, RND-1: a remote that stops publishing loses its streams, then its publish state, before it leaves")
    func remoteUnpublish() {
        var view = subscribedView(.audioVideo)
        let plan = Reconciler.remoteStoppedPublishing(&view, participantId: "bob")
        #expect(plan.events.map(\.name) == ["didRemoveStreams", "subscribeState", "publishState", "participantDidLeave"])
        #expect(plan.events[2].stateName == "notPublished")
        #expect(plan.events.first?.streams.map(\.kind) == [.audio, .video])
    }

    @Test("RND-5: a local leave removes every remote's streams")
    func localLeave() {
        var view = subscribedView(.audioVideo)
        view.local.publishState = .published
        let plan = Reconciler.localLeave(&view)
        #expect(plan.events.map(\.name) == ["didRemoveStreams", "subscribeState", "publishState", "participantDidLeave", "publishState"])
        #expect(view.remotes.isEmpty)
        #expect(plan.commands.last == .unpublish)
    }

    @Test("RND-5, RND-1: a local leave ends only a publish attempted or made, not one the strategy merely wants")
    func localLeaveWithoutPublish() {
        var view = subscribedView(.audioVideo)
        view.local.wantsToPublish = true
        view.local.streams = [LocalStream(kind: .audio)]
        let plan = Reconciler.localLeave(&view)
        #expect(plan.events.map(\.name) == ["didRemoveStreams", "subscribeState", "publishState", "participantDidLeave"])
        #expect(!plan.commands.contains(.unpublish))
    }

    @Test("STR-3: publishing is asked only with the publish capability")
    func publishNeedsCapability() {
        var view = StageView(local: ParticipantInfo(participantId: "me", isLocal: true, capabilities: Capabilities(canPublish: false)))
        view.local.connectionState = .connected
        let plan = Reconciler.refresh(&view, strategy: FixedStrategy(answer: .none, publish: true))
        #expect(plan.isEmpty)
        #expect(!view.local.wantsToPublish)
    }
}

@Suite("Core values")
struct CoreValueTests {
    @Test("attributes are order-independent and measure their size")
    func attributes() {
        let one: Attributes = ["b": "2", "a": "1"]
        let two: Attributes = ["a": "1", "b": "2"]
        #expect(one == two)
        #expect(one.pairs.map(\.key) == ["a", "b"])
        #expect(one.byteCount == 4)
    }

    @Test("SDK kinds parse, and only mobile >= 1.37.0 has the metadata event (VIS-1)")
    func sdkKinds() {
        #expect(SDKKind(parsing: "mobile 1.37.0")?.hasMetadataUpdateEvent == true)
        #expect(SDKKind(parsing: "mobile 1.36.9")?.hasMetadataUpdateEvent == false)
        #expect(SDKKind(parsing: "web 1.40.0")?.hasMetadataUpdateEvent == false)
        #expect(SDKKind(parsing: "composition") == .composition)
        #expect(SDKKind(parsing: "desktop 1.0") == nil)
    }

    @Test("participant ids allow only [A-Za-z0-9_-]")
    func participantIds() {
        #expect(TokenClaims.isValidParticipantId("alice_01-b"))
        #expect(!TokenClaims.isValidParticipantId("al ice"))
        #expect(!TokenClaims.isValidParticipantId("é"))
        #expect(!TokenClaims.isValidParticipantId(""))
    }
}
