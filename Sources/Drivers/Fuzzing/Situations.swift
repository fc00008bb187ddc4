import Scenario
import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// The narrow situations the generator makes on purpose, each switched on or off per seed with
/// its own probability (from its own PRNG stream, so the rest of a seed's draws stay put):
/// each needs a coincidence that uniform draws almost never make. Every drawn parameter is
/// listed in `parameters`.
/// - full stage (6%, only when the participant count is drawn): 13 or 14 publishers, so one
///   publish fails with STAGE_AT_CAPACITY, and everyone refreshes afterwards (STG-4, STR-5);
/// - short token (15%): `exp` a few seconds after the join, then a cut longer than the
///   keepalive timeout or a leave and rejoin (half of them on either side of the second `exp`
///   names): expiry mid-session, refused reconnect, the expiry boundary (TOK-1, NET-3);
/// - long one-way cut (15%): an uplink or downlink cut longer than the keepalive timeout (SIG-6);
/// - foreign token (8%): a join token, or an exchanged one, for another stage or resource (TOK-1, TOK-4);
/// - audio fallback off (25%): each participant publishes with `audioFallback: false` half the time (SUB-6);
/// - unanswered join (10%): a short join retry window and a cut over the whole of it (STG-3);
/// - late pong (10%): short keepalive and a participant whose round trip is longer than the
///   ping interval, so its pongs arrive after the next ping (sometimes after the timeout) (SIG-6);
/// - capability lost mid-publish (15%): an exchange removing `allow_publish` within 40 ms of a
///   refresh that starts publishing (TOK-7);
/// - private metadata (30%): participants send `metadata` only the service may see, and
///   `notifyMetadata` for everyone (SIG-2);
/// - reconnect runs out (12%): a short reconnect policy and a cut both ways past every
///   attempt (the SDK gives up) or ending during them (a late attempt succeeds) (NET-3);
/// - mute while publishing starts (15%): a participant stops publishing, then a refresh starts
///   publishing unmuted audio and video, and 1-30 ms later (within the publish's round trip)
///   it mutes one of them (LST-1);
/// - one metadata field at a time (15%): a publishing mobile participant, watched by a mobile
///   >= 1.37.0 observer, exchanges its token to change only its attributes, then only its
///   userId (VIS-1, VIS-3);
/// - service-issued token (10%): a participant joins with a token the service issued and
///   exchanges it for a key-pair token, or exchanges its key-pair token for one the service
///   issued; the service must refuse both (TOK-3);
/// - join called twice (10%): a participant calls `join()` again 1-30 ms after its first one,
///   while that join is still unanswered: the first attempt is cancelled (STG-3);
/// - kept reconnect cut (12%): a publisher's downlink is cut until the service has dropped one
///   of its reconnect connections, under a reconnect grace longer than the cut, so the
///   service keeps it and then drops its reconnect connection too (SIG-6, SUB-4, NET-3);
/// - token reused (8%): a second client joins with the target's token (its jti and claims)
///   2-10 s after the target's join, which ejects the target's connection (TOK-10);
/// - layer preferences (15%): a subscriber sets a preferred frame rate or resolution for a
///   publisher, twice, at or around the sizes and rate of the publisher's layers (SUB-8);
/// - attributes at the limit (12%): a participant's token attributes at 1,023, 1,024 or
///   1,025 bytes, in its join token or a token it exchanges (TOK-2: at most 1 KB);
/// - narrow downlink (25%): every media downlink at 400-2,500 kbps, at or between a default
///   publisher's simulcast layers, so subscribers receive the low layer (LST-4);
/// - exchange after a refused one (10%): a mobile participant exchanges its token for one the
///   service refuses (service-issued, or expired), then 0-2 s later for one it accepts, with
///   a new user id: the refusal answers the first request and the acceptance the second (TOK-5);
/// - subscribe gained after a quiet strategy change (10%): a mobile participant that may not
///   subscribe changes its strategy's subscribe answer without a refresh, then exchanges its
///   token for one that allows subscribing, while the next participant publishes: the SDK must
///   ask the strategy again, not reuse its earlier answer (TOK-8);
/// - publisher video sources (15%): the target, and each other participant half the time,
///   publishes a camera, screen-sharing or custom video source at a size other than the
///   default portrait 720x1280 (landscape, smaller, square): a stream must carry its
///   publisher's video type and track size (SUB-7);
/// - unsubscribe while subscribing (12%): a participant subscribed with audio and video to the
///   next one turns its answer to none 1-300 ms after that one starts publishing, often while
///   the subscription is still being attempted, and half the time back 1-30 ms later: the
///   unsubscribe must end the subscriber that was subscribing (SUB-3), and subscribing again
///   makes a new one (SUB-2);
/// - stream change after a quiet strategy change (10%): a participant subscribed to the next
///   one changes its subscribe answer without a refresh, then that publisher mutes or unmutes
///   a stream, and only later does the participant refresh: the stream change is a renderer
///   event, which must not feed back into the strategy (STR-7), and the refresh applies the
///   new answer (STR-5);
/// - new instance with the other mute (10%): a publishing participant's strategy returns new
///   audio and video instances, one of them muted, and refreshes: the kinds are the same, so
///   nothing is republished, and the new instances' own mute states must reach the stage (LST-2);
/// - exchange while an observer reconnects (8%): a mobile 1.37.0 observer watching a publisher
///   is cut off both ways past its watchdog, and the publisher exchanges its token for new
///   attributes while it is away: once back, the observer must be told (VIS-1, NET-3);
/// - video configurations (15%): the target, and each other participant half the time,
///   publishes with non-default bitrates, frame rate and simulcast within LST-3's limits; the
///   next participant watches the target, which 3-8 s later republishes a video stream with
///   its own configuration (another size, frame rate or simulcast), and half the time again
///   1-4 s later, sometimes on a narrow downlink: the service, viewers already watching and
///   later ones must all learn the configuration published (LST-3, LST-4, SUB-7);
/// - join again while unanswered (8%): a short join retry policy, a cut both ways from the
///   join, and a second `join()` while the first attempts go unanswered, after the first
///   attempt has timed out or while it waits: the second join cancels the first and starts a
///   window of its own, whose first attempt waits its whole timeout (STG-3);
/// - injected frames (8%): 1-3 frames the service never sent reach the target while it is
///   connected (not joining, away or cut off): a notify about a participant id nobody has, a
///   publish by one, a frame that is not JSON or carries an out-of-range number, or a frame
///   naming the target itself; each must be a logged protocol error, with its reason, that
///   changes nothing (SIG-8, RND-3).
struct Situations {
    private var random: SplitMix64
    /// Whether this seed draws a full stage: it decides the participant count.
    let fullStage: Bool
    private(set) var parameters: [String] = []

    init(seed: UInt64, drawsFullStage: Bool) {
        var random = SplitMix64.stream(seed: seed, name: "situations")
        fullStage = drawsFullStage && random.percentChance(6)
        self.random = random
    }

    /// Adds the situations switched on for this seed to `draft` (whose steps need not be sorted).
    mutating func apply(to draft: inout ScenarioDraft) {
        if fullStage { fillStage(&draft) } else { parameters.append("full stage=off") }
        let kinds: [(name: String, percent: Int, make: (inout Situations, inout ScenarioDraft, Int) -> String)] = [
            ("late pong", 10, { $0.latePong(&$1, $2) }),
            ("short token", 15, { $0.shortToken(&$1, $2) }),
            ("long one-way cut", 15, { $0.longOneWayCut(&$1, $2) }),
            ("foreign token", 8, { $0.foreignToken(&$1, $2) }),
            ("audio fallback off", 25, { $0.audioFallbackOff(&$1, $2) }),
            ("unanswered join", 10, { $0.unansweredJoin(&$1, $2) }),
            ("capability lost mid-publish", 15, { $0.capabilityLostMidPublish(&$1, $2) }),
            ("private metadata", 30, { $0.privateMetadata(&$1, $2) }),
            ("reconnect runs out", 12, { $0.reconnectRunsOut(&$1, $2) }),
            ("mute while publishing starts", 15, { $0.muteWhilePublishingStarts(&$1, $2) }),
            ("one metadata field at a time", 15, { $0.oneMetadataFieldAtATime(&$1, $2) }),
            ("service-issued token", 10, { $0.serviceIssuedToken(&$1, $2) }),
            ("join called twice", 10, { $0.joinCalledTwice(&$1, $2) }),
            ("kept reconnect cut", 12, { $0.keptReconnectCut(&$1, $2) }),
            ("token reused", 8, { $0.tokenReused(&$1, $2) }),
            ("layer preferences", 15, { $0.layerPreferences(&$1, $2) }),
            ("attributes at the limit", 12, { $0.attributesAtTheLimit(&$1, $2) }),
            ("narrow downlink", 25, { $0.narrowDownlink(&$1, $2) }),
            ("exchange after a refused one", 10, { $0.exchangeAfterRefusedOne(&$1, $2) }),
            ("subscribe gained after a quiet strategy change", 10, { $0.subscribeGainedAfterQuietStrategyChange(&$1, $2) }),
            ("publisher video sources", 15, { $0.publisherVideoSources(&$1, $2) }),
            ("unsubscribe while subscribing", 12, { $0.unsubscribeWhileSubscribing(&$1, $2) }),
            ("stream change after a quiet strategy change", 10, { $0.streamChangeAfterQuietStrategyChange(&$1, $2) }),
            ("new instance with the other mute", 10, { $0.newInstanceWithOtherMute(&$1, $2) }),
            ("exchange while an observer reconnects", 8, { $0.exchangeWhileObserverReconnects(&$1, $2) }),
            ("video configurations", 15, { $0.videoConfigurations(&$1, $2) }),
            ("join again while unanswered", 8, { $0.joinAgainWhileUnanswered(&$1, $2) }),
            ("injected frames", 8, { $0.injectedFrames(&$1, $2) }),
        ]
        for kind in kinds {
            guard random.percentChance(kind.percent) else {
                parameters.append("\(kind.name)=off")
                continue
            }
            let target = random.below(draft.participants.count)
            parameters.append("\(kind.name): " + kind.make(&self, &draft, target))
        }
    }

    /// Every participant may publish and wants to; each refreshes once everyone has tried.
    private mutating func fillStage(_ draft: inout ScenarioDraft) {
        for index in draft.participants.indices {
            draft.participants[index].capabilities.canPublish = true
            draft.participants[index].publish = true
            let name = draft.participants[index].name
            draft.steps.append(.init(atMilliseconds: 6_000 + random.upTo(6_000), participant: name, call: .refreshStrategy))
        }
        parameters.append("full stage: \(draft.participants.count) publishers, each refreshes at 6-12s")
    }

    private static func keepalive(_ draft: ScenarioDraft) -> KeepalivePolicy { draft.keepalive ?? KeepalivePolicy() }

    private static func joinTime(of name: String, in draft: ScenarioDraft) -> UInt64 {
        draft.steps.first { $0.participant == name && $0.call == .join }?.atMilliseconds ?? 0
    }

    private static func milliseconds(_ duration: VirtualDuration) -> UInt64 { duration.nanoseconds / 1_000_000 }

    /// Makes the target subscribe with audio and video to the next participant, which may
    /// publish (and publishes from its join when `publishing`); returns both names and when
    /// both have joined (ms).
    private static func subscribeToNext(_ draft: inout ScenarioDraft, _ target: Int, publishing: Bool) -> (name: String, publisherName: String, bothJoined: UInt64) {
        let publisher = (target + 1) % draft.participants.count
        draft.participants[publisher].capabilities.canPublish = true
        if publishing { draft.participants[publisher].publish = true }
        draft.participants[target].capabilities.canSubscribe = true
        draft.participants[target].subscribe = .audioVideo
        let (name, publisherName) = (draft.participants[target].name, draft.participants[publisher].name)
        return (name, publisherName, max(joinTime(of: name, in: draft), joinTime(of: publisherName, in: draft)))
    }

    private mutating func cut(_ draft: inout ScenarioDraft, _ name: String, _ direction: PartitionDirection, from: UInt64, to: UInt64) -> String {
        draft.faults.append(ScenarioDraft.Fault(participant: name, direction: direction, fromMilliseconds: from, toMilliseconds: to))
        return "\(direction.rawValue) cut \(VirtualDuration.milliseconds(from))..\(VirtualDuration.milliseconds(to))"
    }

    /// A short keepalive, and one participant whose round trip is between the ping interval
    /// and a second past the pong timeout.
    private mutating func latePong(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let interval = 1_000 + random.upTo(1_000)
        let timeout = interval + 2_000 + random.upTo(2_000)
        draft.keepalive = KeepalivePolicy(pingInterval: .milliseconds(interval), pongTimeout: .milliseconds(timeout))
        let lowest = interval / 2 + 50
        let latency = lowest + random.upTo((timeout + 1_000) / 2 - lowest)
        draft.participants[target].latency = .milliseconds(latency)
        return "\(draft.participants[target].name) latency \(latency)ms, keepalive \(interval)ms/\(timeout)ms"
    }

    /// `exp` 2-7 s after the join; then a cut both ways longer than the client's watchdog (its
    /// reconnect is refused), or a leave and a rejoin (the join is refused).
    private mutating func shortToken(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        let expiry = Self.joinTime(of: name, in: draft) / 1_000 + 2 + random.upTo(5)
        draft.participants[target].tokenExpiresAtSeconds = expiry
        let after = expiry * 1_000 + random.upTo(2_000)
        if random.percentChance(60) {
            let length = Self.milliseconds(Self.keepalive(draft).clientWatchdog) + 1_000 + random.upTo(4_000)
            return "\(name) exp=\(expiry)s, then " + cut(&draft, name, .both, from: after, to: after + length)
        }
        var (leave, rejoin) = (after, after + 1_000 + random.upTo(2_000))
        if random.percentChance(50) {
            // A rejoin on either side of the second `exp` names: valid until it starts.
            (leave, rejoin) = (expiry * 1_000 - 1_500, expiry * 1_000 - 400 + random.upTo(1_400))
        }
        draft.steps += [.init(atMilliseconds: leave, participant: name, call: .leave), .init(atMilliseconds: rejoin, participant: name, call: .join)]
        return "\(name) exp=\(expiry)s, leave at \(VirtualDuration.milliseconds(leave)), join at \(VirtualDuration.milliseconds(rejoin))"
    }

    /// A cut of one direction longer than the pong timeout plus the ping interval.
    private mutating func longOneWayCut(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let keepalive = Self.keepalive(draft)
        let direction: PartitionDirection = random.percentChance(60) ? .downlink : .uplink
        let start = 2_000 + random.upTo(draft.durationSeconds * 400)
        let length = Self.milliseconds(keepalive.pingInterval + keepalive.pongTimeout) + 1_000 + random.upTo(5_000)
        return "\(draft.participants[target].name) " + cut(&draft, draft.participants[target].name, direction, from: start, to: start + length)
    }

    private mutating func foreignToken(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        let otherStage = "stage-2"
        let otherResource = StageKeys.resource(forStage: otherStage)
        switch random.below(4) {
        case 0:
            draft.participants[target].tokenTopic = otherStage
            return "\(name) joins with topic \(otherStage)"
        case 1:
            draft.participants[target].tokenResource = otherResource
            return "\(name) joins with resource \(otherResource)"
        default:
            var patch = ClaimsPatch()
            if random.percentChance(50) { patch.topic = otherStage } else { patch.resource = otherResource }
            patch.issuedAtSeconds = 0
            let at = Self.joinTime(of: name, in: draft) + 2_000 + random.upTo(draft.durationSeconds * 500)
            draft.steps.append(.init(atMilliseconds: at, participant: name, call: .exchangeToken(.patch(patch))))
            return "\(name) exchanges for \(patch.topic.map { "topic \($0)" } ?? "resource \(otherResource)") at \(VirtualDuration.milliseconds(at))"
        }
    }

    /// Video sources and sizes within LST-3's limits (720p either way): each drawn participant
    /// gets one of three types and one of five sizes, the default's orientation among them.
    private mutating func publisherVideoSources(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let sizes = [(1280, 720), (640, 360), (360, 640), (480, 480), (720, 1280)]
        let types = OpenTokStream.VideoType.allCases
        var chosen: [String] = []
        for index in draft.participants.indices where index == target || random.percentChance(50) {
            let size = sizes[random.below(sizes.count)]
            draft.participants[index].videoType = types[random.below(types.count)]
            draft.participants[index].video = Self.configuration(draft.participants[index].video, widthPixels: size.0, heightPixels: size.1)
            chosen.append("\(draft.participants[index].name) \(draft.participants[index].videoType.rawValue) \(size.0)x\(size.1)")
        }
        return chosen.joined(separator: ", ")
    }

    private mutating func audioFallbackOff(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        for index in draft.participants.indices where index == target || random.percentChance(50) {
            draft.participants[index].audioFallback = false
        }
        return draft.participants.filter { !$0.audioFallback }.map(\.name).joined(separator: " ")
    }

    /// A join retry window of 3-10 s, a cut both ways from the join until 1-4 s after the
    /// window, and half the time a join again once the cut is over.
    private mutating func unansweredJoin(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        let policy = JoinRetryPolicy(attemptTimeout: .milliseconds(1_000 + random.upTo(2_000)), window: .milliseconds(3_000 + random.upTo(7_000)))
        draft.participants[target].joinRetry = policy
        let join = Self.joinTime(of: name, in: draft)
        let end = join + Self.milliseconds(policy.window) + 1_000 + random.upTo(3_000)
        var summary = "\(name) joinRetry \(policy.attemptTimeout)/\(policy.window), " + cut(&draft, name, .both, from: join, to: end)
        if random.percentChance(50) {
            let rejoin = end + 1_000 + random.upTo(2_000)
            draft.steps.append(.init(atMilliseconds: rejoin, participant: name, call: .join))
            summary += ", join again at \(VirtualDuration.milliseconds(rejoin))"
        }
        return summary
    }

    /// STG-3: a join retry policy of 1-3 s attempts in a 4-10 s window, a cut both ways from the
    /// join, and `join()` again 0.5-1.5 attempt timeouts after it, while still connecting. The
    /// cut ends within the second window half the time (a later attempt is answered) and after
    /// it otherwise (the second join fails once its own window is over).
    private mutating func joinAgainWhileUnanswered(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        let attempt = 1_000 + random.upTo(2_000)
        let policy = JoinRetryPolicy(attemptTimeout: .milliseconds(attempt), window: .milliseconds(4_000 + random.upTo(6_000)))
        draft.participants[target].joinRetry = policy
        let join = Self.joinTime(of: name, in: draft)
        let again = join + attempt / 2 + random.upTo(attempt)
        let secondWindowEnd = again + Self.milliseconds(policy.window)
        let end = random.percentChance(50) ? again + 200 + random.upTo(secondWindowEnd - again - 200) : secondWindowEnd + 500 + random.upTo(2_000)
        draft.steps.append(.init(atMilliseconds: again, participant: name, call: .join))
        draft.durationSeconds = max(draft.durationSeconds, end / 1_000 + 10)
        return "\(name) joinRetry \(policy.attemptTimeout)/\(policy.window), joins again at \(VirtualDuration.milliseconds(again)), "
            + cut(&draft, name, .both, from: join, to: end)
    }

    /// A mobile participant that may publish but does not yet: an exchange that removes
    /// `allow_publish`, and within 40 ms of it a refresh that starts publishing.
    private mutating func capabilityLostMidPublish(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        if case .mobile = draft.participants[target].sdk {} else { draft.participants[target].sdk = .mobile(SemanticVersion(1, 37, 0)) }
        draft.participants[target].capabilities = Capabilities()
        draft.participants[target].publish = false
        let exchange = Self.joinTime(of: name, in: draft) + 3_000 + random.upTo(draft.durationSeconds * 400)
        let refresh = exchange - 40 + random.upTo(80)
        var patch = ClaimsPatch()
        patch.capabilities = Capabilities(canPublish: false, canSubscribe: true)
        patch.issuedAtSeconds = 0
        draft.steps += [
            .init(atMilliseconds: exchange, participant: name, call: .exchangeToken(.patch(patch))),
            .init(atMilliseconds: refresh, participant: name, call: .setStrategy(StrategyPatch(publish: true))),
            .init(atMilliseconds: refresh, participant: name, call: .refreshStrategy),
        ]
        return "\(name) loses publish at \(VirtualDuration.milliseconds(exchange)), refresh to publish at \(VirtualDuration.milliseconds(refresh))"
    }

    /// Each participant sends, half the time, a private `metadata` and a public `notifyMetadata`.
    private mutating func privateMetadata(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        for index in draft.participants.indices where index == target || random.percentChance(50) {
            let name = draft.participants[index].name
            draft.participants[index].signalingMetadata = ["secret": "\(name)-\(String(random.next() & 0xFFFF_FFFF, radix: 16))"]
            if random.percentChance(50) { draft.participants[index].notifyMetadata = ["name": name] }
        }
        return draft.participants.filter { $0.signalingMetadata != nil }.map(\.name).joined(separator: " ")
    }

    /// Backoff 200-800 ms, x2, cap 1-3 s, 2-5 attempts; a cut both ways from 2-5 s after the
    /// join that outlasts the watchdog and every attempt's wait by 1-3 s (60%: the SDK gives up
    /// with TIMEOUT) or ends before the last attempt (a late one succeeds). The run is
    /// lengthened to end at least 10 s after the cut.
    private mutating func reconnectRunsOut(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        let policy = ReconnectPolicy(
            backoffBase: .milliseconds(200 + random.upTo(600)), backoffMultiplier: 2,
            backoffCap: .milliseconds(1_000 + random.upTo(2_000)), maxAttempts: 2 + random.below(4)
        )
        draft.participants[target].reconnect = policy
        let waits = (1...policy.maxAttempts + 1).map { Self.milliseconds(policy.backoff(beforeAttempt: $0)) }
        let start = Self.joinTime(of: name, in: draft) + 2_000 + random.upTo(3_000)
        let lost = start + Self.milliseconds(Self.keepalive(draft).clientWatchdog)
        let end = random.percentChance(60)
            ? lost + waits.reduce(0, +) + 1_000 + random.upTo(2_000)
            : lost + waits.dropLast(2).reduce(0, +) + random.upTo(waits[waits.count - 2])
        draft.durationSeconds = max(draft.durationSeconds, end / 1_000 + 10)
        return "\(name) reconnect \(policy.backoffBase)x2/\(policy.backoffCap)/\(policy.maxAttempts), " + cut(&draft, name, .both, from: start, to: end)
    }

    /// LST-1: a participant that may publish stops publishing (if it was) 1 s before a refresh
    /// that starts publishing unmuted audio and video, and 1-30 ms after that refresh (before
    /// the publish's answer is back) mutes one of them: the mute must reach the service while
    /// the publish is still being attempted.
    private mutating func muteWhilePublishingStarts(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        draft.participants[target].capabilities.canPublish = true
        let publish = Self.joinTime(of: name, in: draft) + 2_000 + random.upTo(draft.durationSeconds * 400)
        let mute = publish + 1 + random.upTo(29)
        let kind: MediaKind = random.percentChance(50) ? .audio : .video
        draft.steps += ScenarioGenerator.refresh(name, at: publish - 1_000, StrategyPatch(publish: false))
        draft.steps += ScenarioGenerator.refresh(name, at: publish, StrategyPatch(publish: true, streams: [LocalStream(kind: .audio), LocalStream(kind: .video)]))
        draft.steps.append(.init(atMilliseconds: mute, participant: name, call: .setMuted(kind, muted: true)))
        return "\(name) publishes at \(VirtualDuration.milliseconds(publish)), mutes \(kind.rawValue) at \(VirtualDuration.milliseconds(mute))"
    }

    /// VIS-1, VIS-3: a mobile participant that publishes, 3-10 s after its join, exchanges its
    /// token for one that changes only its attributes, and 1-3 s later for one that changes
    /// only its userId; another participant observes it with a mobile 1.37.0 SDK, which must
    /// render each change alone.
    private mutating func oneMetadataFieldAtATime(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        if case .mobile = draft.participants[target].sdk {} else { draft.participants[target].sdk = .mobile(SemanticVersion(1, 37, 0)) }
        draft.participants[target].capabilities.canPublish = true
        draft.participants[target].publish = true
        let observer = (target + 1 + random.below(draft.participants.count - 1)) % draft.participants.count
        draft.participants[observer].sdk = .mobile(SemanticVersion(1, 37, 0))
        let role = draft.participants[target].attributes["role"] == "host" ? "guest" : "host"
        var attributesOnly = ClaimsPatch()
        attributesOnly.attributes = ["role": role]
        attributesOnly.issuedAtSeconds = 0
        var userIdOnly = attributesOnly
        userIdOnly.userId = "\(name)-renamed"
        let first = Self.joinTime(of: name, in: draft) + 3_000 + random.upTo(7_000)
        let second = first + 1_000 + random.upTo(2_000)
        draft.steps += [
            .init(atMilliseconds: first, participant: name, call: .exchangeToken(.patch(attributesOnly))),
            .init(atMilliseconds: second, participant: name, call: .exchangeToken(.patch(userIdOnly))),
        ]
        return "\(name) changes role to \(role) at \(VirtualDuration.milliseconds(first)), userId at \(VirtualDuration.milliseconds(second)), watched by \(draft.participants[observer].name)"
    }

    /// TOK-3: a mobile participant joins with a token the service issued and 2-10 s later
    /// exchanges it for a key-pair token, or (half the time) joins with a key-pair token and
    /// exchanges it for one the service issued.
    private mutating func serviceIssuedToken(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        if case .mobile = draft.participants[target].sdk {} else { draft.participants[target].sdk = .mobile(SemanticVersion(1, 37, 0)) }
        let joinsWithServiceToken = random.percentChance(50)
        var patch = ClaimsPatch()
        patch.userId = "\(name)-exchanged"
        patch.issuedAtSeconds = 0
        if joinsWithServiceToken { draft.participants[target].tokenSignedBy = .service } else { patch.signer = .service }
        let at = Self.joinTime(of: name, in: draft) + 2_000 + random.upTo(8_000)
        draft.steps.append(.init(atMilliseconds: at, participant: name, call: .exchangeToken(.patch(patch))))
        let from = joinsWithServiceToken ? "a service-issued token" : "a key-pair token"
        return "\(name) joins with \(from) and exchanges it for \(joinsWithServiceToken ? "a key-pair" : "a service-issued") one at \(VirtualDuration.milliseconds(at))"
    }

    /// STG-3: a second `join()` 1-30 ms after the first, within the join's round trip.
    private mutating func joinCalledTwice(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        let again = Self.joinTime(of: name, in: draft) + 1 + random.upTo(29)
        draft.steps.append(.init(atMilliseconds: again, participant: name, call: .join))
        return "\(name) joins again at \(VirtualDuration.milliseconds(again))"
    }

    /// SIG-6, SUB-4, NET-3: a participant that publishes loses its downlink 3-8 s after its
    /// join, under a reconnect grace 5-15 s longer than the cut. The service keeps it as
    /// interrupted; its reconnect joins get through on the uplink, but their answers and pings
    /// do not. The cut lasts until the service has dropped one of those reconnect connections:
    /// the client's watchdog (to notice), its reconnect waits up to the first attempt followed
    /// by a wait longer than the watchdog (the service pings that attempt's connection and gives
    /// up on it before the next replaces it), another watchdog, and 2-8 s. The run is
    /// lengthened to end at least 15 s after the cut.
    private mutating func keptReconnectCut(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        draft.participants[target].capabilities.canPublish = true
        draft.participants[target].publish = true
        var keepalive = Self.keepalive(draft)
        let watchdog = Self.milliseconds(keepalive.clientWatchdog)
        let policy = draft.participants[target].reconnect ?? ReconnectPolicy()
        let waits = (1...policy.maxAttempts).map { Self.milliseconds(policy.backoff(beforeAttempt: $0)) }
        let attempts = waits.indices.dropFirst().first { waits[$0] > watchdog + 500 } ?? waits.count
        let start = Self.joinTime(of: name, in: draft) + 3_000 + random.upTo(5_000)
        let length = 2 * watchdog + waits[..<attempts].reduce(0, +) + 2_000 + random.upTo(6_000)
        keepalive.reconnectGrace = .milliseconds(length + 5_000 + random.upTo(10_000))
        draft.keepalive = keepalive
        draft.durationSeconds = max(draft.durationSeconds, (start + length) / 1_000 + 15)
        return "\(name) grace \(keepalive.reconnectGrace), " + cut(&draft, name, .downlink, from: start, to: start + length)
    }

    /// TOK-10: the next participant joins with the target's token (the same jti, user id,
    /// attributes and capabilities) 2-10 s after the target's join, while the target is most
    /// likely connected: the service ejects the target's connection and everyone else sees
    /// the old connection leave and the new one join.
    private mutating func tokenReused(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        guard draft.participants.count > 1 else { return "needs two participants" }
        let other = (target + 1) % draft.participants.count
        let original = draft.participants[target]
        draft.participants[other].tokenJti = original.name
        draft.participants[other].userId = original.userId
        draft.participants[other].attributes = original.attributes
        draft.participants[other].capabilities = original.capabilities
        let name = draft.participants[other].name
        let join = Self.joinTime(of: original.name, in: draft) + 2_000 + random.upTo(8_000)
        if let first = draft.steps.firstIndex(where: { $0.participant == name && $0.call == .join }) { draft.steps[first].atMilliseconds = join }
        return "\(name) joins with \(original.name)'s token at \(VirtualDuration.milliseconds(join))"
    }

    /// TOK-5: a mobile participant exchanges its token for one the service refuses (signed by
    /// the service, TOK-3, or expired, TOK-1) 2-8 s after joining, then 0-2 s later for a
    /// key-pair token with a new user id, which the service accepts.
    private mutating func exchangeAfterRefusedOne(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        if case .mobile = draft.participants[target].sdk {} else { draft.participants[target].sdk = .mobile(SemanticVersion(1, 37, 0)) }
        var refused = ClaimsPatch()
        refused.userId = "\(name)-refused"
        refused.issuedAtSeconds = 0
        let expired = random.percentChance(50)
        if expired { refused.expiresAtSeconds = 1 } else { refused.signer = .service }
        var accepted = ClaimsPatch()
        accepted.userId = "\(name)-accepted"
        accepted.issuedAtSeconds = 0
        let first = Self.joinTime(of: name, in: draft) + 2_000 + random.upTo(6_000)
        let second = first + random.upTo(2_000)
        draft.steps += [
            .init(atMilliseconds: first, participant: name, call: .exchangeToken(.patch(refused))),
            .init(atMilliseconds: second, participant: name, call: .exchangeToken(.patch(accepted))),
        ]
        return "\(name) exchanges for \(expired ? "an expired" : "a service-issued") token at \(VirtualDuration.milliseconds(first)), then for an accepted one at \(VirtualDuration.milliseconds(second))"
    }

    /// TOK-8: a mobile participant joins unable to subscribe while the next participant
    /// publishes; 2-5 s after its join it changes its strategy's subscribe answer without a
    /// refresh, and 1-3 s later exchanges its token for one that allows subscribing.
    private mutating func subscribeGainedAfterQuietStrategyChange(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        guard draft.participants.count > 1 else { return "needs two participants" }
        let publisher = (target + 1) % draft.participants.count
        draft.participants[publisher].capabilities.canPublish = true
        draft.participants[publisher].publish = true
        let name = draft.participants[target].name
        if case .mobile = draft.participants[target].sdk {} else { draft.participants[target].sdk = .mobile(SemanticVersion(1, 37, 0)) }
        draft.participants[target].capabilities.canSubscribe = false
        let declared = draft.participants[target].subscribe
        let others = SubscribeType.allCases.filter { $0 != declared }
        let answer = random.pick(others) ?? .audioVideo
        let change = Self.joinTime(of: name, in: draft) + 2_000 + random.upTo(3_000)
        let exchange = change + 1_000 + random.upTo(2_000)
        var patch = ClaimsPatch()
        patch.capabilities = Capabilities(canPublish: draft.participants[target].capabilities.canPublish, canSubscribe: true)
        patch.issuedAtSeconds = 0
        draft.steps += [
            .init(atMilliseconds: change, participant: name, call: .setStrategy(StrategyPatch(subscribe: answer))),
            .init(atMilliseconds: exchange, participant: name, call: .exchangeToken(.patch(patch))),
        ]
        return "\(name) subscribes \(declared.rawValue) -> \(answer.rawValue) at \(VirtualDuration.milliseconds(change)) (no refresh), gains subscribe at \(VirtualDuration.milliseconds(exchange)), \(draft.participants[publisher].name) publishes"
    }

    /// SUB-2, SUB-3: the target subscribes with audio and video to the next participant, which
    /// stops publishing (if it was) 1 s before a refresh that starts it publishing, 2 s or more
    /// after both joined; 1-300 ms after that publish (within a round trip or two of the
    /// target's subscription) the target's strategy answers none and it refreshes, and half the
    /// time it answers audioVideo again and refreshes 1-30 ms later.
    private mutating func unsubscribeWhileSubscribing(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        guard draft.participants.count > 1 else { return "needs two participants" }
        let (name, publisherName, bothJoined) = Self.subscribeToNext(&draft, target, publishing: false)
        let publish = bothJoined + 2_000 + random.upTo(draft.durationSeconds * 400)
        let unsubscribe = publish + 1 + random.upTo(299)
        draft.steps += ScenarioGenerator.refresh(publisherName, at: publish - 1_000, StrategyPatch(publish: false))
        draft.steps += ScenarioGenerator.refresh(publisherName, at: publish, StrategyPatch(publish: true, streams: [LocalStream(kind: .audio), LocalStream(kind: .video)]))
        draft.steps += ScenarioGenerator.refresh(name, at: unsubscribe, StrategyPatch(subscribe: SubscribeType.none))
        var text = "\(publisherName) publishes at \(VirtualDuration.milliseconds(publish)), \(name) unsubscribes at \(VirtualDuration.milliseconds(unsubscribe))"
        if random.percentChance(50) {
            let again = unsubscribe + 1 + random.upTo(29)
            draft.steps += ScenarioGenerator.refresh(name, at: again, StrategyPatch(subscribe: .audioVideo))
            text += " and subscribes again at \(VirtualDuration.milliseconds(again))"
        }
        return text
    }

    /// STR-7, STR-5: the target subscribes with audio and video to the next participant, which
    /// publishes audio and video; 3-8 s after both joined the target changes its subscribe
    /// answer (to audioOnly or none) without a refresh, 1-3 s later the publisher mutes or
    /// unmutes its audio or video, and 1-3 s after that the target refreshes.
    private mutating func streamChangeAfterQuietStrategyChange(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        guard draft.participants.count > 1 else { return "needs two participants" }
        let (name, publisherName, bothJoined) = Self.subscribeToNext(&draft, target, publishing: true)
        let answer: SubscribeType = random.percentChance(50) ? .audioOnly : SubscribeType.none
        let change = bothJoined + 3_000 + random.upTo(5_000)
        let mute = change + 1_000 + random.upTo(2_000)
        let refresh = mute + 1_000 + random.upTo(2_000)
        let kind: MediaKind = random.percentChance(50) ? .audio : .video
        let muted = random.percentChance(70)
        draft.steps += [
            .init(atMilliseconds: change, participant: name, call: .setStrategy(StrategyPatch(subscribe: answer))),
            .init(atMilliseconds: mute, participant: publisherName, call: .setMuted(kind, muted: muted)),
            .init(atMilliseconds: refresh, participant: name, call: .refreshStrategy),
        ]
        draft.durationSeconds = max(draft.durationSeconds, refresh / 1_000 + 10)
        return "\(name) subscribes \(answer.rawValue) at \(VirtualDuration.milliseconds(change)) (no refresh), \(publisherName) sets \(kind.rawValue) muted=\(muted) at \(VirtualDuration.milliseconds(mute)), \(name) refreshes at \(VirtualDuration.milliseconds(refresh))"
    }

    /// SUB-8: the target subscribes with audio and video to the next participant, which
    /// publishes; 3-8 s after both joined, and again 1-4 s later, it sets a preferred frame
    /// rate (the layers' own 30 fps, or 15) or resolution (a layer's exact size, or one that
    /// only one dimension of the large layer exceeds) for that publisher.
    private mutating func layerPreferences(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        guard draft.participants.count > 1 else { return "needs two participants" }
        let (name, publisherName, bothJoined) = Self.subscribeToNext(&draft, target, publishing: true)
        var at = bothJoined + 3_000 + random.upTo(5_000)
        var calls: [String] = []
        for _ in 0..<2 {
            let sizes = [(width: 720, height: 1280), (width: 360, height: 640), (width: 720, height: 1000), (width: 400, height: 1280)]
            let size = sizes[random.below(sizes.count)]
            let call: ScriptCall = random.percentChance(50)
                ? .setPreferredFrameRate(publisherId: publisherName, framesPerSecond: random.percentChance(70) ? 30 : 15)
                : .setPreferredResolution(publisherId: publisherName, widthPixels: size.width, heightPixels: size.height)
            draft.steps.append(.init(atMilliseconds: at, participant: name, call: call))
            calls.append("\(call) at \(VirtualDuration.milliseconds(at))")
            at += 1_000 + random.upTo(3_000)
        }
        return "\(name) for \(publisherName): " + calls.joined(separator: ", ")
    }

    /// TOK-2: the target's token attributes (keys and values together) at 1,023, 1,024 or
    /// 1,025 bytes of UTF-8, either side of the 1 KB limit and on it (on it 60% of the time,
    /// where an off-by-one shows): its existing attributes
    /// and a `bio` filled to the size, with the join token or, half the time, in a token it
    /// exchanges 2 s or more after its join. The 1,025-byte token is malformed (TOK-1).
    private mutating func attributesAtTheLimit(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        let size = random.percentChance(60) ? 1_024 : 1_023 + 2 * random.below(2)
        var pairs = draft.participants[target].attributes.pairs.filter { $0.key != "bio" }.map { ($0.key, $0.value) }
        let used = pairs.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count } + "bio".utf8.count
        pairs.append(("bio", String(repeating: "x", count: size - used)))
        let attributes = Attributes(pairs)
        if random.percentChance(50) {
            draft.participants[target].attributes = attributes
            return "\(name) joins with \(size) bytes of attributes"
        }
        var patch = ClaimsPatch()
        patch.attributes = attributes
        patch.issuedAtSeconds = 0
        let at = Self.joinTime(of: name, in: draft) + 2_000 + random.upTo(draft.durationSeconds * 500)
        draft.steps.append(.init(atMilliseconds: at, participant: name, call: .exchangeToken(.patch(patch))))
        return "\(name) exchanges for \(size) bytes of attributes at \(VirtualDuration.milliseconds(at))"
    }

    /// LST-2: the target publishes from its join; 3 s or more later its strategy returns new
    /// audio and video instances (the same kinds, so no republish), one of them muted, and it
    /// refreshes: the stage must hold the new instances' mute states.
    private mutating func newInstanceWithOtherMute(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        draft.participants[target].capabilities.canPublish = true
        draft.participants[target].publish = true
        let name = draft.participants[target].name
        let at = Self.joinTime(of: name, in: draft) + 3_000 + random.upTo(draft.durationSeconds * 500)
        let instance = UInt32(2 + random.upTo(4))
        let muted: MediaKind = random.percentChance(50) ? .audio : .video
        let streams = [MediaKind.audio, .video].map { LocalStream(kind: $0, instance: instance, isMuted: $0 == muted) }
        draft.steps += ScenarioGenerator.refresh(name, at: at, StrategyPatch(publish: true, streams: streams))
        return "\(name) returns instance \(instance) with \(muted.rawValue) muted at \(VirtualDuration.milliseconds(at))"
    }

    /// VIS-1, NET-3: the target, a mobile 1.37.0 observer subscribed to the next participant
    /// (publishing from its join), is cut off both ways 3-7 s after both joined, for 1-4 s
    /// past its watchdog; during the cut the publisher exchanges its token for new attributes.
    /// The run lasts until 30 s after the cut, long enough for a reconnect attempt after it.
    private mutating func exchangeWhileObserverReconnects(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        guard draft.participants.count > 1 else { return "needs two participants" }
        let (name, publisherName, bothJoined) = Self.subscribeToNext(&draft, target, publishing: true)
        draft.participants[target].sdk = .mobile(SemanticVersion(1, 37, 0))
        let watchdog = Self.milliseconds(Self.keepalive(draft).clientWatchdog)
        let start = bothJoined + 3_000 + random.upTo(4_000)
        let length = watchdog + 1_000 + random.upTo(3_000)
        var patch = ClaimsPatch()
        patch.attributes = ["role": random.percentChance(50) ? "host" : "guest", "seat": "row-\(1 + random.upTo(9))"]
        patch.issuedAtSeconds = 0
        let exchange = start + 500 + random.upTo(length - 1_000)
        draft.steps.append(.init(atMilliseconds: exchange, participant: publisherName, call: .exchangeToken(.patch(patch))))
        draft.durationSeconds = max(draft.durationSeconds, (start + length) / 1_000 + 30)
        return "\(name) watching \(publisherName), " + cut(&draft, name, .both, from: start, to: start + length)
            + ", \(publisherName) exchanges at \(VirtualDuration.milliseconds(exchange))"
    }

    /// LST-3, LST-4, SUB-7: participant configurations drawn within the limits (the target's,
    /// and each other's half the time); the next participant subscribes with audio and video
    /// to the target, publishing from its join, which 3-8 s after both joined republishes a
    /// video stream with its own configuration and refreshes, and half the time 1-4 s later
    /// once more (its own configuration again, or none: back to the participant's). A third of
    /// the time every media downlink is narrowed to between or below the layers' bitrates.
    private mutating func videoConfigurations(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        var chosen: [String] = []
        for index in draft.participants.indices where index == target || random.percentChance(50) {
            let configuration = drawConfiguration(from: draft.participants[index].video ?? VideoConfiguration())
            draft.participants[index].video = configuration
            chosen.append("\(draft.participants[index].name) \(configuration.scenarioText)")
        }
        guard draft.participants.count > 1 else { return chosen.joined(separator: ", ") }
        let watcher = (target + draft.participants.count - 1) % draft.participants.count
        let (_, publisherName, bothJoined) = Self.subscribeToNext(&draft, watcher, publishing: true)
        var at = bothJoined + 3_000 + random.upTo(5_000)
        let base = draft.participants[target].video ?? VideoConfiguration()
        for round in 0..<2 where round == 0 || random.percentChance(50) {
            let own: VideoConfiguration? = round == 1 && random.percentChance(40) ? nil : drawConfiguration(from: base, resized: true)
            let video = LocalStream(kind: .video, instance: UInt32(round + 1), video: own)
            draft.steps += ScenarioGenerator.refresh(publisherName, at: at, StrategyPatch(publish: true, streams: [LocalStream(kind: .audio), video]))
            chosen.append("\(publisherName) republishes at \(VirtualDuration.milliseconds(at)) with \(own?.scenarioText ?? "the participant's configuration")")
            at += 1_000 + random.upTo(3_000)
        }
        if draft.network.downlinkBitsPerSecond == LinkConditions().downlinkBitsPerSecond && random.percentChance(35) {
            let kbps = random.pick([150, 300, 450, 700, 1_000, 1_500]) ?? 700
            draft.network.downlinkBitsPerSecond = kbps * 1_000
            chosen.append("downlink \(kbps) kbps")
        }
        draft.durationSeconds = max(draft.durationSeconds, at / 1_000 + 10)
        return chosen.joined(separator: ", ")
    }

    /// `base` with bitrates, frame rate, simulcast and degradation drawn within LST-3's limits
    /// (bitrates at and between its ends, frame rates at its ends and the seed's 30), and, when
    /// `resized`, one of the publisher-video-sources sizes.
    private mutating func drawConfiguration(from base: VideoConfiguration, resized: Bool = false) -> VideoConfiguration {
        let maximum = random.pick([100_000, 250_000, 900_000, 1_500_000, 2_500_000]) ?? 900_000
        let minimum = random.pick([100_000, 200_000, 500_000, maximum].filter { $0 <= maximum }) ?? 100_000
        let sizes = [(1280, 720), (640, 360), (360, 640), (480, 480), (720, 1280)]
        let size = resized ? sizes[random.below(sizes.count)] : (base.widthPixels, base.heightPixels)
        var configuration = Self.configuration(nil, widthPixels: size.0, heightPixels: size.1)
        // Within the limits by construction: the maximum first, as the loader reads them.
        try? configuration.setMaxBitrate(maximum)
        try? configuration.setMinBitrate(minimum)
        try? configuration.setTargetFramerate(random.pick([10, 15, 24, 30]) ?? 30)
        configuration.simulcastEnabled = random.percentChance(60)
        configuration.degradationPreference = random.pick(DegradationPreference.allCases) ?? .balanced
        return configuration
    }

    /// `base` (or the default) at a size within the limits.
    private static func configuration(_ base: VideoConfiguration?, widthPixels: Int, heightPixels: Int) -> VideoConfiguration {
        var configuration = base ?? VideoConfiguration()
        // Drawn sizes are within 720p; one outside would keep the size, as the loader refuses it.
        try? configuration.setSize(widthPixels: widthPixels, heightPixels: heightPixels)
        return configuration
    }

    /// LST-4: every participant's media downlink at 400-2,500 kbps, at or between the bitrates
    /// of a default publisher's simulcast layers (625 kbps low, 2,500 kbps high): a subscriber
    /// that cannot carry the high layer receives the low one (or, under both, falls back to
    /// audio for quality, SUB-5). Otherwise the downlink is 10 Mbps and carries every layer.
    private mutating func narrowDownlink(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let kbps = random.pick([400, 624, 625, 1_200, 2_499, 2_500]) ?? 1_200
        draft.network.downlinkBitsPerSecond = kbps * 1_000
        return "downlink \(kbps) kbps"
    }

    /// 1-3 frames contradicting the target or not decoding, each at a drawn time while it is
    /// settled on the stage, in the first 70% of the run (so that the end is quiet and views
    /// are judged, as for the generator's events).
    private mutating func injectedFrames(_ draft: inout ScenarioDraft, _ target: Int) -> String {
        let name = draft.participants[target].name
        let ownId = draft.participants[target].tokenJti ?? name
        let settled = Self.settledSpans(of: name, in: draft, before: draft.durationSeconds * 700)
        let settledMilliseconds = settled.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        guard settledMilliseconds > 0 else { return "to \(name): none (never settled)" }
        var described: [String] = []
        for _ in 0..<(1 + random.below(3)) {
            var offset = random.upTo(settledMilliseconds - 1)
            let span = settled.first { span in
                guard offset >= span.upperBound - span.lowerBound else { return true }
                offset -= span.upperBound - span.lowerBound
                return false
            }
            guard let at = span.map({ $0.lowerBound + offset }) else { continue }
            let kind = Self.contradictingFrames[random.below(Self.contradictingFrames.count)]
            draft.injections.append(.init(atMilliseconds: at, participant: name, frame: kind.text(ownId)))
            described.append("\(kind.name) at \(VirtualDuration.milliseconds(at))")
        }
        return "to \(name): " + described.joined(separator: ", ")
    }

    /// The times before `end` when `name` is settled on the stage, in order: from 3 s after
    /// a join, except from a leave to 3 s after the next join and during and 15 s after each
    /// cut of it or outage (it may be reconnecting).
    private static func settledSpans(of name: String, in draft: ScenarioDraft, before end: UInt64) -> [Range<UInt64>] {
        let own = draft.steps.filter { $0.participant == name }
        let joins = own.filter { $0.call == .join }.map(\.atMilliseconds)
        var unsettled = joins.map { $0 - min($0, 500)..<$0 + 3_000 }
        for leave in own where leave.call == .leave {
            let rejoin = joins.filter { $0 >= leave.atMilliseconds }.min() ?? end
            unsettled.append(leave.atMilliseconds - min(leave.atMilliseconds, 500)..<rejoin + 3_000)
        }
        for fault in draft.faults where fault.participant == nil || fault.participant == name {
            unsettled.append(fault.fromMilliseconds..<max(fault.fromMilliseconds, fault.toMilliseconds) + 15_000)
        }
        guard var start = joins.min().map({ $0 + 3_000 }), start < end else { return [] }
        var spans: [Range<UInt64>] = []
        for window in unsettled.sorted(by: { $0.lowerBound < $1.lowerBound }) where window.upperBound > start {
            if window.lowerBound > start { spans.append(start..<min(window.lowerBound, end)) }
            start = max(start, window.upperBound)
            if start >= end { break }
        }
        if start < end { spans.append(start..<end) }
        return spans.filter { !$0.isEmpty }
    }

    /// The frames the SIG-8 scenarios inject, each given the target's participant id.
    private static let contradictingFrames: [(name: String, text: @Sendable (String) -> String)] = [
        ("leave of an unknown id", { _ in #"{"type":"notify","event_type":"connection.destroyed","connection_id":"ghost"}"# }),
        ("update of an unknown id", { _ in
            #"{"type":"notify","event_type":"connection.updated","connection_id":"ghost","role":"sendrecv","authn_metadata":{"participant_id":"ghost","user_id":"ghost-user","attributes":{},"allow_publish":true,"allow_subscribe":true},"authz_metadata":{"allow_publish":true,"allow_subscribe":true}}"#
        }),
        ("publish by an unknown id", { _ in
            #"{"type":"push","data":{"event":"participantPublished","publisher":{"participant":{"participant_id":"ghost","user_id":"ghost-user","attributes":{},"allow_publish":true,"allow_subscribe":true},"streams":[{"participant_id":"ghost","kind":"audio","muted":false}],"video_sdp":"a=x-stagesim-video:fallback=true type=camera size=720x1280 fps=30\r\na=x-stagesim-layer:low 625000 640\r\na=x-stagesim-layer:high 2500000 1280","created_ns":5,"stream_no":1}}}"#
        }),
        ("not JSON", { _ in "not json at all" }),
        ("publish with an out-of-range number", { _ in #"{"type":"push","data":{"event":"participantPublished","publisher":1e400}}"# }),
        ("leave of itself", { id in #"{"type":"notify","event_type":"connection.destroyed","connection_id":"\#(id)"}"# }),
        ("interruption of itself", { id in #"{"type":"push","data":{"event":"participantInterrupted","participant_id":"\#(id)"}}"# }),
    ]
}
