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

/// The reconciler's answer: commands to carry out and the renderer events they imply, in order.
public struct ReconcilePlan: Hashable, Sendable {
    public var commands: [StageCommand] = []
    public var events: [RendererEvent] = []

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
        let canSubscribe = view.local.info.capabilities.canSubscribe
        for index in view.remotes.indices {
            let answer = strategy.shouldSubscribe(to: view[index: index].info)
            if answer != view[index: index].answer {
                view[index: index].answer = answer
                reconcileRemote(&view, at: index, canSubscribe: canSubscribe, into: &plan)
            }
        }
        refreshPublishAnswers(&view, strategy: strategy)
        reconcileLocal(&view, into: &plan)
        return plan
    }

    /// Asks shouldPublish and streamsToPublish, only for a connected local participant whose
    /// token allows publishing (STR-3).
    public static func refreshPublishAnswers(_ view: inout StageView, strategy: some StrategyAnswers) {
        guard view.local.connectionState == .connected, view.local.info.capabilities.canPublish else { return }
        view.local.wantsToPublish = strategy.shouldPublish(view.local.info)
        if view.local.wantsToPublish {
            let streams = strategy.streamsToPublish(for: view.local.info)
            if streams != view.local.streams { view.local.streams = streams }
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
            remote.requested.allows(stream.kind) && !remote.addedStreams.contains { $0.kind == stream.kind }
        }
        if !newStreams.isEmpty {
            remote.addedStreams.append(contentsOf: newStreams)
            plan.events.append(.didAddStreams(remote.info, newStreams))
        }
        view[index: index] = remote
        return plan
    }

    /// Brings the local publish state to the strategy's answer (STR-3, STR-4, TOK-7).
    public static func reconcileLocal(_ view: inout StageView, into plan: inout ReconcilePlan) {
        let info = view.local.info
        let target = view.local.publishTarget
        if target && !view.local.isPublishingOrAttempting {
            plan.commands.append(.publish(view.local.streams))
            view.local.publishState = .attemptingPublish
            plan.events.append(.publishStateChanged(info, .attemptingPublish, nil))
        } else if !target && view.local.isPublishingOrAttempting {
            plan.commands.append(.unpublish)
            view.local.publishState = .notPublished
            plan.events.append(.publishStateChanged(info, .notPublished, nil))
        }
    }

    /// A remote stopped publishing or left: every added stream is removed and the subscription
    /// ends before renderers hear participantDidLeave (RND-3, RND-5).
    public static func remoteStoppedPublishing(_ view: inout StageView, participantId: String) -> ReconcilePlan {
        var plan = ReconcilePlan()
        guard let index = view.index(of: participantId) else { return plan }
        view[index: index].publishedStreams = []
        reconcileRemote(&view, at: index, canSubscribe: view.local.info.capabilities.canSubscribe, into: &plan)
        if view[index: index].announced {
            view[index: index].announced = false
            plan.events.append(.participantDidLeave(view[index: index].info))
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
