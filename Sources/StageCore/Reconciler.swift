/// A command the reconciler asks the SDK's transport to carry out.
public enum StageCommand: Hashable, Sendable {
    case subscribe(participantId: String, SubscribeType)
    case unsubscribe(participantId: String)
    /// audioVideo -> audioOnly: keep the audio, drop the video (STR-6).
    case downgradeToAudioOnly(participantId: String)
    case publish([LocalStream])
    case unpublish
    /// A published stream's mute state changed (LST-1, LST-2).
    case applyMute(LocalStream)
}

/// Which strategy questions a reconcile asked and which answers changed: the evidence the
/// STR-3 (publish asked only with the capability) and STR-5 (unchanged refresh is silent)
/// monitors check.
public struct StrategyQueryReport: Hashable, Sendable {
    /// Whether shouldPublish/streamsToPublish were asked.
    public var askedShouldPublish = false
    /// Whether the local token allowed publishing when the questions were asked.
    public var canPublish: Bool
    /// Participant ids whose shouldSubscribe answer changed, in view order.
    public var changedSubscribeAnswers: [String] = []
    /// Whether the shouldPublish answer or the returned streams changed.
    public var publishAnswersChanged = false
    /// The streams streamsToPublish returned, as returned (with their own mute states), when
    /// it was asked: the strategy's answer itself, whatever the SDK then did with it (LST-2).
    public var streamsReturned: [LocalStream]?

    public init(canPublish: Bool) { self.canPublish = canPublish }

    public var anythingChanged: Bool { !changedSubscribeAnswers.isEmpty || publishAnswersChanged }
}

/// The reconciler's answer: commands to carry out and the renderer events they imply, in order.
public struct ReconcilePlan: Hashable, Sendable {
    public var commands: [StageCommand] = []
    public var events: [RendererEvent] = []
    /// Set when the plan came from asking the strategy.
    public var report: StrategyQueryReport?

    public init() {}

    public var isEmpty: Bool { commands.isEmpty && events.isEmpty }

    public mutating func append(_ other: ReconcilePlan) {
        commands.append(contentsOf: other.commands)
        events.append(contentsOf: other.events)
    }
}

/// The real SDK core: turns the strategy's answers and the current stage view into the minimal
/// commands and renderer events (STR-1..7, RND-4, RND-5). No simulation lives here.
///
/// Cost: `refresh` asks the strategy once per remote participant and once for publishing, and
/// does work only for answers that changed (STR-5): O(participants) queries plus O(changes).
public enum Reconciler {
    /// refreshStrategy(): re-query every answer and apply only the differences (STR-5).
    public static func refresh(_ view: inout StageView, strategy: some StrategyAnswers) -> ReconcilePlan {
        var plan = ReconcilePlan()
        var report = StrategyQueryReport(canPublish: view.local.info.capabilities.canPublish)
        let canSubscribe = view.local.info.capabilities.canSubscribe
        for index in view.remotes.indices {
            let answer = strategy.shouldSubscribe(to: view[index: index].info)
            if answer != view[index: index].answer {
                view[index: index].answer = answer
                report.changedSubscribeAnswers.append(view[index: index].info.participantId)
                reconcileRemote(&view, at: index, canSubscribe: canSubscribe, into: &plan)
            }
        }
        refreshPublishAnswers(&view, strategy: strategy, report: &report)
        reconcileLocal(&view, into: &plan)
        plan.report = report
        if Mutants.isOn(.eventsOnUnchangedRefresh) && !report.anythingChanged && view.local.connectionState == .connected {
            plan.events.append(.publishStateChanged(view.local.info, view.local.publishState, nil))
        }
        return plan
    }

    /// Asks shouldPublish and streamsToPublish, only for a connected local participant whose
    /// token allows publishing (STR-3).
    public static func refreshPublishAnswers(
        _ view: inout StageView, strategy: some StrategyAnswers, report: inout StrategyQueryReport
    ) {
        guard view.local.connectionState == .connected, view.local.info.capabilities.canPublish else { return }
        report.askedShouldPublish = true
        let wantsToPublish = strategy.shouldPublish(view.local.info)
        if wantsToPublish != view.local.wantsToPublish {
            view.local.wantsToPublish = wantsToPublish
            report.publishAnswersChanged = true
        }
        guard wantsToPublish else { return }
        let streams = strategy.streamsToPublish(for: view.local.info)
        report.streamsReturned = streams
        if streams != view.local.streams {
            view.local.streams = streams
            report.publishAnswersChanged = true
        }
    }

    /// Brings one remote's subscription to its target: subscribe, unsubscribe or drop video.
    public static func reconcileRemote(
        _ view: inout StageView, at index: Int, canSubscribe: Bool, into plan: inout ReconcilePlan
    ) {
        var remote = view[index: index]
        let target = remote.target(canSubscribe: canSubscribe)
        guard target != remote.requested else { return }
        let id = remote.info.participantId
        switch (remote.requested, target) {
        case (_, .none):
            plan.commands.append(.unsubscribe(participantId: id))
            removeStreams(from: &remote, where: { _ in true }, into: &plan)
            remote.requested = .none
            if remote.subscribeState != .notSubscribed {
                remote.subscribeState = .notSubscribed
                plan.events.append(.subscribeStateChanged(remote.info, .notSubscribed, nil))
            }
        case (.audioVideo, .audioOnly):
            plan.commands.append(.downgradeToAudioOnly(participantId: id))
            removeStreams(from: &remote, where: { $0.kind == .video }, into: &plan)
            remote.requested = .audioOnly
        case (.none, _):
            plan.commands.append(.subscribe(participantId: id, target))
            remote.requested = target
            remote.subscribeState = .attemptingSubscribe
            plan.events.append(.subscribeStateChanged(remote.info, .attemptingSubscribe, nil))
        default:
            plan.commands.append(.subscribe(participantId: id, target))
            remote.requested = target
        }
        view[index: index] = remote
    }

    /// The server confirmed a subscription: renderers learn `subscribed`, then get the streams
    /// the current subscription type allows that they do not have yet (RND-4).
    public static func subscriptionConfirmed(_ view: inout StageView, participantId: String) -> ReconcilePlan {
        var plan = ReconcilePlan()
        guard let index = view.index(of: participantId) else { return plan }
        var remote = view[index: index]
        guard remote.requested != .none, remote.isPublishing else { return plan }
        if remote.subscribeState != .subscribed {
            remote.subscribeState = .subscribed
            plan.events.append(.subscribeStateChanged(remote.info, .subscribed, nil))
        }
        let newStreams = remote.publishedStreams.filter { stream in
            (remote.requested.allows(stream.kind) || Mutants.isOn(.videoUnderAudioOnly)) && !remote.addedStreams.contains { $0.kind == stream.kind }
        }
        if !newStreams.isEmpty {
            remote.addedStreams.append(contentsOf: newStreams)
            plan.events.append(.didAddStreams(remote.info, newStreams))
        }
        view[index: index] = remote
        return plan
    }

    /// Brings the local publish state to the strategy's answer (STR-3, STR-4, TOK-7): publish,
    /// unpublish, republish when the set of stream kinds or a stream's own video configuration
    /// changed (LST-3: the service and subscribers learn a configuration from a publish), or
    /// apply the mute state of streams whose mute differs from what is published (LST-1,
    /// LST-2). A publish still being attempted when the answer turns to false ends with
    /// CANCELED (STG-3).
    public static func reconcileLocal(_ view: inout StageView, into plan: inout ReconcilePlan) {
        let info = view.local.info
        let target = view.local.publishTarget
        let retryBlocked = Mutants.isOn(.noRetryOfErroredPublish) && view.local.publishState == .errored
        if target && !view.local.isPublishingOrAttempting && !retryBlocked {
            plan.commands.append(.publish(view.local.streams))
            view.local.publishedStreams = view.local.streams
            view.local.publishState = .attemptingPublish
            plan.events.append(.publishStateChanged(info, .attemptingPublish, nil))
        } else if !target && view.local.isPublishingOrAttempting {
            let canceled = view.local.publishState == .attemptingPublish
                ? StageError(code: .canceled, category: .publish, isFatal: false) : nil
            plan.commands.append(.unpublish)
            view.local.publishedStreams = []
            view.local.publishState = .notPublished
            plan.events.append(.publishStateChanged(info, .notPublished, canceled))
        } else if target && view.local.streams != view.local.publishedStreams {
            updatePublishedStreams(&view, into: &plan)
        }
    }

    private static func updatePublishedStreams(_ view: inout StageView, into plan: inout ReconcilePlan) {
        let wanted = view.local.streams
        let published = view.local.publishedStreams
        if wanted.map(\.kind) != published.map(\.kind) || wanted.map(\.video) != published.map(\.video) {
            plan.commands.append(.publish(wanted))
        } else if !Mutants.isOn(.ignoreNewInstanceMute) || wanted.map(\.instance) == published.map(\.instance) {
            for (new, old) in zip(wanted, published) where new.isMuted != old.isMuted {
                plan.commands.append(.applyMute(new))
            }
        }
        view.local.publishedStreams = wanted
    }

    /// setMuted on the local stream of `kind` (LST-1): the stream the strategy returned, and the
    /// published one if it is that same instance, change at once.
    public static func setLocalMute(_ view: inout StageView, kind: MediaKind, muted: Bool) -> ReconcilePlan {
        var plan = ReconcilePlan()
        for index in view.local.streams.indices where view.local.streams[index].kind == kind {
            view.local.streams[index].isMuted = muted
        }
        if view.local.isPublishingOrAttempting { reconcileLocal(&view, into: &plan) }
        return plan
    }

    /// A remote publisher's streams changed while it publishes: a mute change is reported with
    /// didChangeMutedStreams for the streams renderers have (RND-6); a kind no longer published
    /// is removed; a newly published kind the subscription allows is asked for again.
    public static func remoteStreamsChanged(_ view: inout StageView, participantId: String, streams: [StageStream]) -> ReconcilePlan {
        var plan = ReconcilePlan()
        guard let index = view.index(of: participantId) else { return plan }
        var remote = view[index: index]
        remote.publishedStreams = streams
        let gone = remote.addedStreams.filter { added in !streams.contains { $0.kind == added.kind } }
        if !gone.isEmpty {
            remote.addedStreams.removeAll { added in gone.contains { $0.kind == added.kind } }
            plan.events.append(.didRemoveStreams(remote.info, gone))
        }
        var muteChanged: [StageStream] = []
        for position in remote.addedStreams.indices {
            if let current = streams.first(where: { $0.kind == remote.addedStreams[position].kind }),
               current.isMuted != remote.addedStreams[position].isMuted {
                remote.addedStreams[position].isMuted = current.isMuted
                muteChanged.append(current)
            }
        }
        if !muteChanged.isEmpty { plan.events.append(.didChangeMutedStreams(remote.info, muteChanged)) }
        let missing = streams.contains { stream in
            (remote.requested.allows(stream.kind) || Mutants.isOn(.videoUnderAudioOnly)) && !remote.addedStreams.contains { $0.kind == stream.kind }
        }
        if missing && remote.subscribeState == .subscribed {
            plan.commands.append(.subscribe(participantId: participantId, remote.requested))
        }
        view[index: index] = remote
        return plan
    }

    /// A remote stopped publishing or left: every added stream is removed and the subscription
    /// ends before renderers hear participantDidLeave (RND-3, RND-5).
    public static func remoteStoppedPublishing(_ view: inout StageView, participantId: String) -> ReconcilePlan {
        var plan = ReconcilePlan()
        guard let index = view.index(of: participantId) else { return plan }
        view[index: index].publishedStreams = []
        if Mutants.isOn(.keepStreamsAfterLeave) { view[index: index].addedStreams = [] }
        reconcileRemote(&view, at: index, canSubscribe: view.local.info.capabilities.canSubscribe, into: &plan)
        if view[index: index].announced {
            view[index: index].announced = false
            plan.events.append(.publishStateChanged(view[index: index].info, .notPublished, nil))
            if !Mutants.isOn(.noLeaveOnRemoteLeave) { plan.events.append(.participantDidLeave(view[index: index].info)) }
        }
        return plan
    }

    /// The local participant leaves: every remote's streams are removed and every announced
    /// remote leaves before the local participant itself (RND-5: all removed by local leave).
    public static func localLeave(_ view: inout StageView) -> ReconcilePlan {
        var plan = ReconcilePlan()
        for remote in view.remotes {
            plan.append(remoteStoppedPublishing(&view, participantId: remote.info.participantId))
        }
        view.removeAllRemotes()
        if view.local.isPublishingOrAttempting {
            view.local.publishState = .notPublished
            view.local.publishedStreams = []
            plan.commands.append(.unpublish)
            plan.events.append(.publishStateChanged(view.local.info, .notPublished, nil))
        }
        return plan
    }

    private static func removeStreams(
        from remote: inout RemoteParticipant, where shouldRemove: (StageStream) -> Bool, into plan: inout ReconcilePlan
    ) {
        let removed = remote.addedStreams.filter(shouldRemove)
        guard !removed.isEmpty else { return }
        remote.addedStreams.removeAll(where: shouldRemove)
        plan.events.append(.didRemoveStreams(remote.info, removed))
    }
}
