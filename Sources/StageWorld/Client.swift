import Simulation
import StageCore
import SubscriberModel

/// One SDK instance in the world: its configuration (shared by every copy), and what changes
/// during the run: its token, its strategy, its connection and its view of the stage, which
/// only the reconciler and this type's handlers change.
public struct Client: Hashable, Sendable {
    /// What this client was declared with; never changes during the run.
    public var config: ClientConfig { settings.config }
    /// The world's keepalive, which the client's ping watchdog follows (SIG-6).
    var keepalive: KeepalivePolicy { settings.keepalive }
    private let settings: Settings
    /// The name scenarios and traces use for this SDK instance.
    public var name: String { settings.config.name }
    /// The SDK this client is, read without copying its whole configuration (monitors ask it
    /// at every event).
    public var sdk: SDKKind { settings.config.sdk }
    /// The strategy this client was declared with, read likewise (a monitor's key asks it for
    /// every client).
    public var configuredStrategy: StrategySpec { settings.config.strategy }
    /// The participant token as the app passed it (TOK-1).
    public var token: String { didSet { tokenEncoding = nil } }
    /// `token` as the state encoding writes it (`writeToken`) under the world's key ring, made
    /// once when the token is set so that the model checker's key never reads it from the
    /// process-wide `TokenReading` memo; nil for a client made without the key ring.
    private(set) var tokenEncoding: TokenEncoding?
    /// The token's claims as the SDK reads them (unverified; the service verifies), or nil
    /// when the token cannot be read.
    public private(set) var claims: TokenClaims?
    /// Tokens sent to the service by exchangeToken and not yet answered, oldest first: the
    /// service answers them in order (TOK-4, TOK-5).
    public internal(set) var pendingExchanges: [String] = []
    /// Publish requests sent on the current connection and not yet answered. The service
    /// answers them in order, so only the answer that brings this to zero answers the newest
    /// request; an earlier one (a publish cancelled and asked again, STG-3) changes nothing.
    public internal(set) var publishRepliesOwed = 0
    /// Tokens passed to exchangeToken while a join or reconnect was in progress, oldest first:
    /// carried out when it ends (TOK-4, TOK-5, `runDeferredExchanges`).
    public internal(set) var deferredExchanges: [String] = []
    /// The current strategy: the configured one until setStrategy or a mute changes it (STR-1, LST-1).
    public var strategy: StrategySpec
    public var view: StageView { didSet { viewWrites.advance() } }
    /// How many times `view` has been written: a monitor that found the view as it should be
    /// skips it until this moves (`RendererPictureMonitor`).
    public private(set) var viewWrites = WriteCount()
    /// The join in progress while connecting, nil otherwise.
    public private(set) var joinAttempt: JoinAttempt?
    /// The current connection's number; every join attempt opens a new one (NET-3).
    public internal(set) var epoch = 0
    /// Pings heard on the current connection (the watchdog's evidence).
    public internal(set) var pingsHeard = 0
    /// The reconnect attempt in progress after a lost connection, nil otherwise.
    public internal(set) var reconnectAttempt: Int?
    /// The OpenTok-style view of remote streams: the session's streams and one subscriber
    /// per publisher (SUB-1..6), and whether media is routed (quality fallback) or relayed.
    public internal(set) var session: SessionObserver
    public internal(set) var subscribers: [SubscriberSlot] = []
    /// What it learned of each remote publisher's settings (SUB-6, SUB-7).
    public internal(set) var remoteProperties: [String: PublisherProperties] = [:]
    /// Every video size this client has published other than its configured one, in the order
    /// first sent: those of video streams with their own configuration (LST-3). A stream told
    /// of may describe any of them while its frames are in flight (SUB-7). Empty unless the
    /// strategy returns such a stream, as only the Swift API's does.
    public internal(set) var videoSizesPublished: [OpenTokStream.VideoDimensions] = []

    /// A client at the start of a run: the configured token and strategy, disconnected.
    /// `keyRing`: the stage service's keys, which the state encoding judges tokens by.
    public init(config: ClientConfig, keepalive: KeepalivePolicy = KeepalivePolicy(), keyRing: TokenKeyRing? = nil) {
        self.settings = Settings(config: config, keepalive: keepalive, keyRing: keyRing)
        self.token = config.initialToken
        self.tokenEncoding = keyRing.map { TokenEncoding(token: config.initialToken, keyRing: $0) }
        self.claims = TokenCodec.decodeUnverified(token)
        self.strategy = config.strategy
        self.session = SessionObserver(ownConnectionId: config.name, deliversOwnStreams: false)
        let info = claims?.participantInfo(isLocal: true)
            ?? ParticipantInfo(participantId: config.name, userId: "", isLocal: true, attributes: [:], capabilities: Capabilities())
        self.view = StageView(local: info)
    }

    /// The one reference every copy of a client shares its settings through.
    private final class Settings: Hashable, Sendable {
        let config: ClientConfig
        let keepalive: KeepalivePolicy
        let keyRing: TokenKeyRing?

        init(config: ClientConfig, keepalive: KeepalivePolicy, keyRing: TokenKeyRing?) {
            self.config = config
            self.keepalive = keepalive
            self.keyRing = keyRing
        }

        static func == (lhs: Settings, rhs: Settings) -> Bool {
            lhs === rhs || (lhs.config == rhs.config && lhs.keepalive == rhs.keepalive && lhs.keyRing == rhs.keyRing)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(config)
            hasher.combine(keepalive)
        }
    }

    /// Replaces the token and what the SDK reads from it (an accepted or offline exchange).
    mutating func adopt(token newToken: String, claims newClaims: TokenClaims) {
        token = newToken
        tokenEncoding = settings.keyRing.map { TokenEncoding(token: newToken, keyRing: $0) }
        claims = newClaims
    }

    /// The key ring `tokenEncoding` was made under, if any.
    var tokenKeyRing: TokenKeyRing? { settings.keyRing }

    /// What handling one input produced: renderer events for this client's renderers and
    /// messages for the stage service.
    public struct Output: Sendable {
        public var events: [RendererEvent] = []
        public var messages: [WireMessage] = []
        /// The strategy questions asked while handling the input, when it asked any.
        public var report: StrategyQueryReport?
        /// How many of `events` came before the first question was asked: the trace records the
        /// questions there, so a connect's questions follow its `connected` (STR-3: "Once
        /// connected to the stage, the SDK queries the host application").
        public var reportPosition = 0
        /// Errors for the app's error delegate.
        public var errors: [SDKErrorReport] = []
        /// Subscriber callbacks a host call on a subscriber caused (SUB-8).
        public var subscriberEvents: [SubscriberTraceEvent] = []
        /// Timers to set, each to fire after its delay.
        public var timers: [(after: VirtualDuration, timer: ClientTimer)] = []
        /// Other participants' connections interrupted or back (SUB-4).
        public var remoteConnections: [RemoteConnectionChange] = []
        /// Why the message was refused as contradicting what the client knows (SIG-8); a
        /// refused message produces nothing else.
        public var refusal: String?

        /// STR-1: "When a remote participant joins a stage, the SDK queries the host
        /// application": a shouldSubscribe asked outside a strategy refresh (a remote connected
        /// or started publishing) is recorded too, unless the output already records a query.
        mutating func reportSubscribeQuery(canPublish: Bool) {
            if report == nil { record(StrategyQueryReport(canPublish: canPublish)) }
        }

        /// Records the questions asked now; the first questions' place among `events` stays.
        private mutating func record(_ asked: StrategyQueryReport) {
            if report == nil { reportPosition = events.count }
            report = asked
        }

        mutating func apply(_ plan: ReconcilePlan, from client: Client) {
            if let planReport = plan.report { record(planReport) }
            events += plan.events
            for command in plan.commands { messages += client.messages(for: command) }
        }
    }

    // MARK: Host calls

    /// Handles a host call; `strategy` answers the SDK's questions (the declared `self.strategy`
    /// in scenarios, a user's strategy object through the Swift API).
    public mutating func handle(_ call: HostCall, strategy: some StrategyAnswers, now: VirtualTime) -> Output {
        switch call {
        case .join: return join(now: now)
        case .leave: return leave()
        case .refreshStrategy: return refreshStrategy(strategy)
        case .setStrategy(let spec):
            self.strategy = spec
            return Output()
        case .setMuted(let kind, let muted):
            return setMuted(kind, muted)
        case .exchangeToken(let newToken):
            return exchangeToken(newToken)
        case .setPreferredResolution(let id, let width, let height):
            return Output(subscriberEvents: preferResolution(of: id, width: width, height: height))
        case .setPreferredFrameRate(let id, let fps):
            return Output(subscriberEvents: preferFrameRate(of: id, framesPerSecond: fps))
        }
    }

    /// LST-1: the declared stream object changes whether or not the strategy has returned it;
    /// if it is being published, the stage hears the new state at once.
    private mutating func setMuted(_ kind: MediaKind, _ muted: Bool) -> Output {
        for index in strategy.streams.indices where strategy.streams[index].kind == kind {
            strategy.streams[index].isMuted = muted
        }
        var output = Output()
        output.apply(Reconciler.setLocalMute(&view, kind: kind, muted: muted), from: self)
        return output
    }

    /// join(): a new join starts attempt 1 of a retry window (STG-3); a join() while one is in
    /// progress cancels it (CANCELED) and starts a fresh window.
    private mutating func join(now: VirtualTime) -> Output {
        var output = Output()
        switch view.local.connectionState {
        case .disconnected, .errored:
            output.events.append(.connectionStateChanged(.connecting, nil))
        case .connecting:
            output.events.append(.connectionStateChanged(.connecting, StageError(code: .canceled, category: .join, isFatal: false)))
        case .connected:
            return output
        }
        view.local.connectionState = .connecting
        let number = (joinAttempt?.number ?? 0) + 1
        joinAttempt = JoinAttempt(number: number, firstAttemptAt: now)
        sendJoinAttempt(number, now: now, into: &output)
        return output
    }

    private mutating func sendJoinAttempt(_ number: Int, now: VirtualTime, into output: inout Output) {
        guard let attempt = joinAttempt else { return }
        let remaining = config.joinRetry.window - (now - attempt.firstAttemptAt)
        openConnection(into: &output)
        output.timers.append((after: min(config.joinRetry.attemptTimeout, remaining), timer: .joinAttemptTimeout(attempt: number)))
    }

    // MARK: Timers

    /// A timer this client set has fired; timers of attempts that already ended change nothing
    /// (the world cancels them as soon as they end, `World.cancelSpentTimers`).
    public mutating func handle(_ timer: ClientTimer, now: VirtualTime) -> Output {
        guard isLive(timer) else { return Output() }
        switch timer {
        case .joinAttemptTimeout(let number): return joinAttemptTimedOut(number, now: now)
        case .pingWatchdog: return pingWatchdogFired()
        case .reconnectAttempt(let number): return reconnectAttemptDue(number)
        }
    }

    /// Whether `timer` would change anything if it fired now: only the timer of the join attempt
    /// outstanding, the watchdog of the last ping heard on a connected connection, and the
    /// reconnect attempt due next do. A timer that is not live belongs to an attempt, connection
    /// or reconnect that has ended, and the world cancels it (`World.cancelSpentTimers`), as an
    /// SDK cancels its timers: a later join or reconnect numbers its attempts from 1 again and
    /// must not take an earlier one's timer for its own.
    public func isLive(_ timer: ClientTimer) -> Bool { TimerEvidence(of: self).isLive(timer) }

    /// STG-3: an unanswered join is sent again until the retry window is spent; then the SDK
    /// reports FAILED and tells the service to forget any late join.
    private mutating func joinAttemptTimedOut(_ number: Int, now: VirtualTime) -> Output {
        var output = Output()
        guard let attempt = joinAttempt else { return output }
        if now - attempt.firstAttemptAt < config.joinRetry.window || Mutants.isOn(.retryJoinForever) {
            if Mutants.isOn(.retryJoinForever) { joinAttempt?.firstAttemptAt = now }
            joinAttempt?.number = number + 1
            sendJoinAttempt(number + 1, now: now, into: &output)
            return output
        }
        disconnect(error: StageError(code: .failed, category: .join, isFatal: true), into: &output)
        output.messages.append(.leave)
        return output
    }

    private mutating func leave() -> Output {
        var output = Output()
        let state = view.local.connectionState
        guard state == .connected || state == .connecting else { return output }
        disconnect(error: nil, into: &output)
        output.messages.append(.leave)
        return output
    }

    /// Ends the session on this side: every remote and the local participant leave the
    /// renderers (RND-5), then the connection state becomes disconnected with `error`. Every
    /// path to `disconnected` (leave, give-up, refusal, ejection, FAILED) goes through here.
    mutating func disconnect(error: StageError?, into output: inout Output) {
        if view.local.connectionState == .connected || reconnectAttempt != nil {
            output.apply(Reconciler.localLeave(&view), from: self)
            output.events.append(.participantDidLeave(view.local.info))
        }
        view.local.connectionState = .disconnected
        joinAttempt = nil
        reconnectAttempt = nil
        publishRepliesOwed = 0
        pendingExchanges = []
        output.events.append(.connectionStateChanged(.disconnected, error))
        runDeferredExchanges(into: &output)
    }

    private mutating func refreshStrategy(_ strategy: some StrategyAnswers) -> Output {
        var output = Output()
        guard view.local.connectionState == .connected else { return output }
        output.apply(Reconciler.refresh(&view, strategy: strategy), from: self)
        return output
    }

    // MARK: Messages from the stage service

    /// Handles a message from the stage service; one that contradicts what the client knows
    /// is refused and changes nothing (`Output.refusal`, SIG-8).
    public mutating func handle(_ message: WireMessage, strategy: some StrategyAnswers) -> Output {
        if let reason = contradiction(in: message) { return Output(refusal: reason) }
        let state = view.local.connectionState
        switch message {
        case .joinAccepted(let snapshots, _) where state == .connecting && reconnectAttempt != nil:
            return reconnected(snapshots, strategy: strategy).answering(with: .answer)
        case .joinAccepted(let snapshots, _) where state == .connecting: return joinAccepted(snapshots, strategy: strategy).answering(with: .answer)
        case .joinRejected(let error, _) where state == .connecting: return joinRejected(error)
        default: break
        }
        guard state == .connected else { return Output() }
        var output = Output()
        switch message {
        case .publishAccepted, .publishRejected:
            publishRepliesOwed = max(publishRepliesOwed - 1, 0)
            if publishRepliesOwed == 0 { publishAnswered(message, into: &output) }
        case .participantJoined(let info, _):
            remoteJoined(info, strategy: strategy)
            output.reportSubscribeQuery(canPublish: view.local.info.capabilities.canPublish)
        case .participantPublished(let snapshot):
            remotePublished(snapshot, strategy: strategy, into: &output)
        case .participantUnpublished(let id):
            output.apply(Reconciler.remoteStoppedPublishing(&view, participantId: id), from: self)
        case .participantLeft(let id):
            output.apply(Reconciler.remoteStoppedPublishing(&view, participantId: id), from: self)
            view.remove(id)
        case .subscribeAccepted(let id):
            output.apply(Reconciler.subscriptionConfirmed(&view, participantId: id), from: self)
            output = output.answering(with: .reAnswer)
        case .exchangeAccepted(let info):
            exchangeAccepted(info, strategy: strategy, into: &output)
        case .exchangeRejected(let error, let reason):
            if !pendingExchanges.isEmpty { pendingExchanges.removeFirst() }
            output.errors.append(SDKErrorReport(error: error, reason: reason))
        case .participantUpdated(let info):
            remoteMetadataUpdated(info, into: &output)
        case .participantInterrupted(let id):
            output.remoteConnections.append(.interrupted(participantId: id))
        case .participantReconnected(let info):
            remoteReconnected(info, into: &output)
        case .ejected(let reason):
            ejected(reason, into: &output)
        case .ping:
            heardPing(into: &output)
        default:
            break
        }
        return output
    }

    /// The answer to the newest publish request: it settles a publish still being attempted.
    private mutating func publishAnswered(_ answer: WireMessage, into output: inout Output) {
        guard view.local.publishState == .attemptingPublish else { return }
        switch answer {
        case .publishAccepted:
            view.local.publishState = .published
            output.events.append(.publishStateChanged(view.local.info, .published, nil))
        case .publishRejected(let error):
            view.local.publishState = .errored
            view.local.publishedStreams = []
            output.events.append(.publishStateChanged(view.local.info, .errored, error))
            output.errors.append(SDKErrorReport(error: error, reason: "the stage service refused the publish"))
        default:
            break
        }
    }

    /// Counts the publish requests among what the client is about to send, and notes the video
    /// sizes they carry that differ from the configured one (`videoSizesPublished`).
    mutating func countPublishRequests(in messages: [WireMessage]) {
        for message in messages {
            guard case .publish(_, let properties) = message else { continue }
            publishRepliesOwed += 1
            let size = OpenTokStream.VideoDimensions(width: properties.widthPixels, height: properties.heightPixels)
            if size != OpenTokStream.VideoDimensions(width: config.video.widthPixels, height: config.video.heightPixels), !videoSizesPublished.contains(size) {
                videoSizesPublished.append(size)
            }
        }
    }

    private mutating func joinAccepted(_ snapshots: [PublisherSnapshot], strategy: some StrategyAnswers) -> Output {
        var output = Output()
        view.local.connectionState = .connected
        joinAttempt = nil
        armWatchdog(into: &output)
        output.events.append(.connectionStateChanged(.connected, nil))
        output.events.append(.participantDidJoin(view.local.info))
        for snapshot in snapshots {
            remoteJoined(snapshot.info, strategy: strategy)
            if !snapshot.streams.isEmpty { remotePublished(snapshot, strategy: strategy, into: &output) }
        }
        var plan = ReconcilePlan()
        var report = StrategyQueryReport(canPublish: view.local.info.capabilities.canPublish)
        Reconciler.refreshPublishAnswers(&view, strategy: strategy, report: &report)
        Reconciler.reconcileLocal(&view, into: &plan)
        plan.report = report
        output.apply(plan, from: self)
        endKeptPublish(into: &output)
        runDeferredExchanges(into: &output)
        return output
    }

    /// The service refused a join. A refused reconnect (NET-3) ends the session exactly as
    /// giving up does: streams removed, everyone leaves, then `disconnected` with the error.
    private mutating func joinRejected(_ error: StageError) -> Output {
        var output = Output()
        if Mutants.isOn(.keepViewOnRefusedReconnect) {
            reconnectAttempt = nil
        }
        disconnect(error: error, into: &output)
        return output
    }

    /// A remote connected: the strategy is asked at once (STR-1); nothing is rendered until it
    /// publishes (RND-2).
    mutating func remoteJoined(_ info: ParticipantInfo, strategy: some StrategyAnswers) {
        view.upsert(RemoteParticipant(info: info, answer: strategy.shouldSubscribe(to: info)))
    }

    /// A remote publishes: renderers hear participantDidJoin first (RND-2, RND-3), with the
    /// userId and attributes the service holds now (VIS-2, VIS-4); the strategy is asked about
    /// it with that info (STR-1), and the subscription it asks for starts (STR-2). A change to an announced publisher's streams keeps
    /// the info renderers have: metadata changes reach them only as VIS-1 allows.
    mutating func remotePublished(_ snapshot: PublisherSnapshot, strategy: some StrategyAnswers, into output: inout Output) {
        let index = view.index(of: snapshot.info.participantId)
            ?? view.upsert(RemoteParticipant(info: snapshot.info, answer: strategy.shouldSubscribe(to: snapshot.info)))
        learnProperties(of: snapshot, into: &output)
        if view[index: index].announced {
            if Mutants.isOn(.joinAgainOnStreamChange) { output.events.append(.participantDidJoin(snapshot.info)) }
            output.apply(Reconciler.remoteStreamsChanged(&view, participantId: snapshot.info.participantId, streams: snapshot.streams), from: self)
            output.subscriberEvents += followPublisherMedia()
            return
        }
        view[index: index].info = snapshot.info
        view[index: index].answer = strategy.shouldSubscribe(to: snapshot.info)
        output.reportSubscribeQuery(canPublish: view.local.info.capabilities.canPublish)
        view[index: index].publishedStreams = snapshot.streams
        view[index: index].announced = true
        output.events.append(.participantDidJoin(snapshot.info))
        output.events.append(.publishStateChanged(snapshot.info, .published, nil))
        var plan = ReconcilePlan()
        Reconciler.reconcileRemote(&view, at: index, canSubscribe: view.local.info.capabilities.canSubscribe, into: &plan)
        output.apply(plan, from: self)
    }

    /// What this client tells subscribers about its video when it publishes `streams`: the video
    /// stream's own configuration, or the client's (LST-3, LST-4).
    func publisherProperties(for streams: [LocalStream]) -> PublisherProperties {
        PublisherProperties(audioFallbackEnabled: config.audioFallbackEnabled, videoType: config.videoType, video: Self.video(of: streams) ?? config.video)
    }

    /// The video configuration of the current publish (LST-3, LST-4): the published video
    /// stream's own, or the client's.
    public var publishedVideo: VideoConfiguration { Self.video(of: view.local.publishedStreams) ?? config.video }

    /// The own configuration of the video stream among `streams`, if it has one.
    private static func video(of streams: [LocalStream]) -> VideoConfiguration? {
        streams.first { $0.kind == .video }?.video
    }

    /// The signaling a reconciler command needs.
    func messages(for command: StageCommand) -> [WireMessage] {
        switch command {
        case .subscribe(let id, let type): return [.subscribe(publisherId: id, type)]
        case .downgradeToAudioOnly(let id): return [.subscribe(publisherId: id, .audioOnly)]
        case .unsubscribe(let id):
            return view[id]?.isPublishing == true ? [.unsubscribe(publisherId: id)] : []
        case .publish(let streams):
            let id = view.local.info.participantId
            return [.publish(streams.map { StageStream(participantId: id, kind: $0.kind, isMuted: $0.isMuted) }, publisherProperties(for: streams))]
        case .unpublish: return [.unpublish]
        case .applyMute(let stream): return [.mute(stream.kind, stream.isMuted)]
        }
    }
}
