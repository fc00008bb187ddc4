import Testing
@testable import StageCore

/// A strategy that records every question the SDK asks it, in order.
private final class QuestionRecorder: StrategyAnswers {
    var subscribeAnswers: [String: SubscribeType]
    var defaultAnswer: SubscribeType
    var publish: Bool
    var streams: [LocalStream]
    private(set) var askedShouldSubscribe: [String] = []
    private(set) var askedShouldPublish = 0
    private(set) var askedStreamsToPublish = 0

    init(
        subscribeAnswers: [String: SubscribeType] = [:], defaultAnswer: SubscribeType = .audioVideo, publish: Bool = true,
        streams: [LocalStream] = [LocalStream(kind: .audio), LocalStream(kind: .video)]
    ) {
        self.subscribeAnswers = subscribeAnswers
        self.defaultAnswer = defaultAnswer
        self.publish = publish
        self.streams = streams
    }

    var askedAnything: Bool { !askedShouldSubscribe.isEmpty || askedShouldPublish > 0 || askedStreamsToPublish > 0 }

    func shouldSubscribe(to participant: ParticipantInfo) -> SubscribeType {
        askedShouldSubscribe.append(participant.participantId)
        return subscribeAnswers[participant.participantId] ?? defaultAnswer
    }

    func shouldPublish(_ participant: ParticipantInfo) -> Bool {
        askedShouldPublish += 1
        return publish
    }

    func streamsToPublish(for participant: ParticipantInfo) -> [LocalStream] {
        askedStreamsToPublish += 1
        return streams
    }
}

private let bothKinds = [LocalStream(kind: .audio), LocalStream(kind: .video)]

private func localInfo(canPublish: Bool = true, canSubscribe: Bool = true, userId: String = "u-old", attributes: Attributes = ["role": "guest"]) -> ParticipantInfo {
    ParticipantInfo(
        participantId: "me", userId: userId, isLocal: true, attributes: attributes,
        capabilities: Capabilities(canPublish: canPublish, canSubscribe: canSubscribe)
    )
}

private func publishedStreams(of id: String) -> [StageStream] {
    [StageStream(participantId: id, kind: .audio), StageStream(participantId: id, kind: .video)]
}

/// A connected view for `local`; each id in `publishing` publishes audio+video and is announced
/// (and subscribed audioVideo when the local token can subscribe); each id in `idle` is
/// connected without publishing.
private func exchangeView(local: ParticipantInfo, publishing: [String] = [], idle: [String] = [], answer: SubscribeType = .audioVideo) -> StageView {
    var view = StageView(local: local)
    view.local.connectionState = .connected
    for id in publishing {
        var remote = RemoteParticipant(info: ParticipantInfo(participantId: id, userId: "user-\(id)"), answer: answer)
        remote.publishedStreams = publishedStreams(of: id)
        remote.announced = true
        let index = view.upsert(remote)
        var plan = ReconcilePlan()
        Reconciler.reconcileRemote(&view, at: index, canSubscribe: local.capabilities.canSubscribe, into: &plan)
        _ = Reconciler.subscriptionConfirmed(&view, participantId: id)
    }
    for id in idle {
        view.upsert(RemoteParticipant(info: ParticipantInfo(participantId: id, userId: "user-\(id)"), answer: answer))
    }
    return view
}

/// `view` with the local participant publishing `streams`.
private func publishing(_ view: StageView, streams: [LocalStream] = bothKinds) -> StageView {
    var view = view
    view.local.wantsToPublish = true
    view.local.streams = streams
    view.local.publishedStreams = streams
    view.local.publishState = .published
    return view
}

@Suite("Reconciler: token exchange (TOK-5..8)")
struct TokenExchangeReconcilerTests {
    @Test("TOK-6: publish capability gained asks shouldPublish at once and starts publishing")
    func publishGained() {
        var view = exchangeView(local: localInfo(canPublish: false), publishing: ["bob"])
        let strategy = QuestionRecorder(publish: true)
        let newInfo = localInfo(canPublish: true)
        let plan = Reconciler.tokenExchanged(&view, newInfo: newInfo, strategy: strategy)

        #expect(strategy.askedShouldPublish == 1)
        #expect(strategy.askedStreamsToPublish == 1)
        #expect(strategy.askedShouldSubscribe.isEmpty, "subscribe capability did not change")
        #expect(plan.commands == [.publish(bothKinds)])
        #expect(plan.events == [.publishStateChanged(newInfo, .attemptingPublish, nil)])
        #expect(plan.report?.askedShouldPublish == true)
        #expect(plan.report?.canPublish == true)
        #expect(view.local.info == newInfo)
        #expect(view.local.publishState == .attemptingPublish)
        #expect(view.local.wantsToPublish)
    }

    @Test("TOK-6: publish capability gained with shouldPublish false asks but does not publish")
    func publishGainedButDeclined() {
        var view = exchangeView(local: localInfo(canPublish: false))
        let strategy = QuestionRecorder(publish: false)
        let plan = Reconciler.tokenExchanged(&view, newInfo: localInfo(canPublish: true), strategy: strategy)
        #expect(strategy.askedShouldPublish == 1)
        #expect(plan.isEmpty)
        #expect(plan.report?.askedShouldPublish == true)
        #expect(view.local.publishState == .notPublished)
    }

    @Test("TOK-7: publish capability lost unpublishes at once without asking the strategy")
    func publishLost() {
        var view = publishing(exchangeView(local: localInfo(canPublish: true), publishing: ["bob"]))
        let strategy = QuestionRecorder(publish: true)
        let newInfo = localInfo(canPublish: false)
        let plan = Reconciler.tokenExchanged(&view, newInfo: newInfo, strategy: strategy)

        #expect(!strategy.askedAnything, "TOK-7: the strategy must not be consulted")
        #expect(plan.commands == [.unpublish])
        #expect(plan.events == [.publishStateChanged(newInfo, .notPublished, nil)])
        #expect(plan.report == nil)
        #expect(view.local.publishState == .notPublished)
        #expect(view.local.publishedStreams.isEmpty)
        #expect(view["bob"]?.subscribeState == .subscribed, "losing publish leaves subscriptions alone")
    }

    @Test("TOK-8: subscribe capability lost ends every subscription without asking the strategy")
    func subscribeLost() {
        var view = exchangeView(local: localInfo(canSubscribe: true), publishing: ["bob", "carol"], idle: ["dave"])
        #expect(view["bob"]?.subscribeState == .subscribed)
        #expect(view["carol"]?.addedStreams.count == 2)
        let bobInfo = view["bob"]!.info
        let carolInfo = view["carol"]!.info
        let strategy = QuestionRecorder()
        let plan = Reconciler.tokenExchanged(&view, newInfo: localInfo(canSubscribe: false), strategy: strategy)

        #expect(!strategy.askedAnything, "TOK-8: the strategy must not be consulted")
        #expect(plan.commands == [.unsubscribe(participantId: "bob"), .unsubscribe(participantId: "carol")])
        #expect(plan.events == [
            .didRemoveStreams(bobInfo, publishedStreams(of: "bob")),
            .subscribeStateChanged(bobInfo, .notSubscribed, nil),
            .didRemoveStreams(carolInfo, publishedStreams(of: "carol")),
            .subscribeStateChanged(carolInfo, .notSubscribed, nil),
        ])
        #expect(plan.report == nil)
        for id in ["bob", "carol"] {
            #expect(view[id]?.addedStreams.isEmpty == true)
            #expect(view[id]?.subscribeState == .notSubscribed)
            #expect(view[id]?.requested == SubscribeType.none)
            #expect(view[id]?.announced == true, "the remote still publishes: no leave")
        }
        #expect(!plan.events.contains { $0.name == "participantDidLeave" })
    }

    @Test("TOK-8: subscribe capability gained asks shouldSubscribe for every remote and subscribes to publishers")
    func subscribeGained() {
        // Answers seen while the token could not subscribe: bob's stays audioVideo, carol's and
        // dave's change; dave does not publish, so nothing is requested for him (STR-2).
        var view = exchangeView(local: localInfo(canSubscribe: false), publishing: ["bob", "carol"], idle: ["dave"], answer: .audioVideo)
        #expect(view.remotes.allSatisfy { $0.requested == SubscribeType.none })
        let strategy = QuestionRecorder(subscribeAnswers: ["bob": .audioVideo, "carol": .audioOnly, "dave": .none])
        let plan = Reconciler.tokenExchanged(&view, newInfo: localInfo(canSubscribe: true), strategy: strategy)

        #expect(strategy.askedShouldSubscribe == ["bob", "carol", "dave"])
        #expect(strategy.askedShouldPublish == 0, "publish capability did not change")
        #expect(plan.commands == [.subscribe(participantId: "bob", .audioVideo), .subscribe(participantId: "carol", .audioOnly)])
        #expect(plan.events == [
            .subscribeStateChanged(view["bob"]!.info, .attemptingSubscribe, nil),
            .subscribeStateChanged(view["carol"]!.info, .attemptingSubscribe, nil),
        ])
        #expect(plan.report?.changedSubscribeAnswers == ["carol", "dave"])
        #expect(view["bob"]?.requested == .audioVideo)
        #expect(view["carol"]?.requested == .audioOnly)
        #expect(view["dave"]?.answer == SubscribeType.none)
        #expect(view["dave"]?.requested == SubscribeType.none)
    }

    @Test("TOK-5: a userId/attributes-only exchange emits no command and no event")
    func metadataOnly() {
        var view = publishing(exchangeView(local: localInfo(userId: "u-old"), publishing: ["bob"]))
        let before = view
        let strategy = QuestionRecorder()
        let newInfo = localInfo(userId: "u-new", attributes: ["role": "host", "featured": "true"])
        let plan = Reconciler.tokenExchanged(&view, newInfo: newInfo, strategy: strategy)

        #expect(plan.isEmpty)
        #expect(plan.report == nil)
        #expect(!strategy.askedAnything)
        #expect(view.local.info == newInfo)
        var expected = before
        expected.local.info = newInfo
        #expect(view == expected, "only the local info changes")
    }
}
