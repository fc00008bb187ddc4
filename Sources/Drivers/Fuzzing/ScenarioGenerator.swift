import Scenario
import Simulation
import StageCore
import StageWorld

/// Draws a random valid scenario from a seed (the fuzzer's generator): participants with
/// random SDK kinds, capabilities, attributes and strategies; joins, strategy changes and
/// refreshes, mutes, token exchanges, leaves and rejoins; a swarm fault plan (each fault
/// kind on or off per seed); and narrow situations, each on or off per seed (`Situations`).
/// Every drawn parameter is listed in `parameters`.
public struct ScenarioGenerator: Sendable {
    /// Fixed participant count and run length, or nil to draw them (2...8 participants, 20...60 s;
    /// a full stage, drawn rarely, has 13 or 14 participants and 20...30 s).
    public var participantCount: Int?
    public var durationSeconds: UInt64?

    public init(participantCount: Int? = nil, durationSeconds: UInt64? = nil) {
        self.participantCount = participantCount
        self.durationSeconds = durationSeconds
    }

    /// Both sides of the metadata event's version threshold (VIS-1), and a web SDK numbered
    /// past it (the threshold is the mobile SDK's only).
    static let sdks: [SDKKind] = [
        .mobile(SemanticVersion(1, 37, 0)), .mobile(SemanticVersion(1, 36, 0)), .web(SemanticVersion(1, 24, 0)), .composition,
        .mobile(SemanticVersion(1, 38, 2)), .mobile(SemanticVersion(1, 36, 9)), .web(SemanticVersion(1, 37, 0)),
    ]

    public func draft(seed: UInt64) -> (draft: ScenarioDraft, parameters: [String]) {
        var random = SplitMix64.stream(seed: seed, name: "generator")
        var situations = Situations(seed: seed, drawsFullStage: participantCount == nil)
        let count = participantCount ?? (situations.fullStage ? 13 + random.below(2) : 2 + random.below(7))
        let duration = durationSeconds ?? (situations.fullStage ? 20 + random.upTo(10) : 20 + random.upTo(40))
        let participants = (1...count).map { participant(number: $0, random: &random) }
        var steps = participants.map { ScenarioDraft.Step(atMilliseconds: random.upTo(3_000), participant: $0.name, call: .join) }
        for _ in 0..<(3 + random.below(13)) {
            steps += event(among: participants, before: duration, random: &random)
        }
        let swarm = SwarmFaults(seed: seed, clientNames: participants.map(\.name), duration: .seconds(duration))
        for partition in swarm.plan.partitions where random.percentChance(60) {
            steps += churn(during: partition, among: participants, random: &random)
        }
        steps.sort { $0.atMilliseconds < $1.atMilliseconds }
        var draft = ScenarioDraft(
            name: "generated from seed \(seed)", seed: seed, durationSeconds: duration, network: swarm.link,
            faults: swarm.plan.partitions.map(Self.fault), participants: participants, steps: steps, comments: []
        )
        if random.percentChance(50) {
            draft.keepalive = KeepalivePolicy(pingInterval: .seconds(1 + random.upTo(2)), pongTimeout: .seconds(1 + random.upTo(3)))
        }
        situations.apply(to: &draft)
        draft.steps.sort { $0.atMilliseconds < $1.atMilliseconds }
        let cast = draft.participants.map { participant in
            (["\(participant.name)=\(participant.sdk) caps=\(participant.capabilities) publish=\(participant.publish) subscribe=\(participant.subscribe.rawValue)"]
                + participant.extras).joined(separator: " ")
        }
        let keepalive = draft.keepalive.map { "keepalive: pingInterval \($0.pingInterval), pongTimeout \($0.pongTimeout), reconnectGrace \($0.reconnectGrace)" } ?? "keepalive=default"
        return (draft, ["participants=\(count) duration=\(draft.durationSeconds)s steps=\(draft.steps.count) \(keepalive)"] + cast
            + ["situations: " + situations.parameters.joined(separator: ", "), "faults: " + swarm.parameters.joined(separator: ", ")])
    }

    private func participant(number: Int, random: inout SplitMix64) -> ScenarioDraft.Participant {
        let capabilities = Self.capabilities(&random)
        return ScenarioDraft.Participant(
            name: "p\(number)", sdk: random.pick(Self.sdks) ?? .composition, userId: "user-\(number)",
            attributes: random.percentChance(50) ? ["role": random.pick(["guest", "host", "moderator"]) ?? "guest"] : [:],
            capabilities: capabilities, publish: random.percentChance(70), subscribe: random.pick(SubscribeType.allCases) ?? .audioVideo
        )
    }

    /// Both capabilities (70-80%), or one of them.
    private static func capabilities(_ random: inout SplitMix64, bothPercent: UInt64 = 80) -> Capabilities {
        guard !random.percentChance(bothPercent) else { return Capabilities() }
        return random.percentChance(50) ? Capabilities(canPublish: false, canSubscribe: true) : Capabilities(canPublish: true, canSubscribe: false)
    }

    /// One host-driven event at a random time in the first 70% of the run (so that the end is
    /// quiet and convergence is judged): new answers and a refresh (`strategyChange`), a mute, a
    /// token exchange, or a leave and a rejoin.
    private func event(among participants: [ScenarioDraft.Participant], before duration: UInt64, random: inout SplitMix64) -> [ScenarioDraft.Step] {
        let who = random.pick(participants)?.name ?? "p1"
        let latest = max(duration * 700, 5_000)
        let at = 1_000 + random.upTo(latest - 1_000)
        switch random.below(4) {
        case 0:
            return strategyChange(of: who, at: at, latest: latest, random: &random)
        case 1:
            return [.init(atMilliseconds: at, participant: who, call: .setMuted(random.percentChance(50) ? .audio : .video, muted: random.percentChance(50)))]
        case 2:
            var patch = ClaimsPatch()
            patch.capabilities = Self.capabilities(&random, bothPercent: 70)
            if random.percentChance(12) { Self.changeImmutableField(of: &patch, random: &random) }
            patch.userId = "\(who)-v\(random.upTo(9))"
            patch.attributes = ["role": random.pick(["guest", "host"]) ?? "guest"]
            patch.issuedAtSeconds = 0
            return [.init(atMilliseconds: at, participant: who, call: .exchangeToken(.patch(patch)))]
        default:
            return [.init(atMilliseconds: at, participant: who, call: .leave),
                    .init(atMilliseconds: at + 500 + random.upTo(3_000), participant: who, call: .join)]
        }
    }

    /// New answers and a refresh, sometimes returning a new stream instance with its own mute
    /// state or a different set of kinds; half the time such a change of streams is followed, a
    /// few seconds later (and no later than `latest`), by a second one to another set of kinds
    /// while publishing, so that a publisher's tracks swap kinds (STR-4: the new tracks are
    /// published, the old ones removed).
    private func strategyChange(of who: String, at: UInt64, latest: UInt64, random: inout SplitMix64) -> [ScenarioDraft.Step] {
        let subscribe = random.pick(SubscribeType.allCases) ?? .audioVideo
        guard random.percentChance(35) else {
            return Self.refresh(who, at: at, StrategyPatch(publish: random.percentChance(60), subscribe: subscribe))
        }
        let audio = LocalStream(kind: .audio, instance: UInt32(1 + random.upTo(5)), isMuted: random.percentChance(50))
        let kindSets = [[audio, LocalStream(kind: .video)], [audio], [LocalStream(kind: .video)]]
        let first = random.below(kindSets.count)
        let change = Self.refresh(who, at: at, StrategyPatch(publish: random.percentChance(60), streams: kindSets[first], subscribe: subscribe))
        guard random.percentChance(50) else { return change }
        let second = (first + 1 + random.below(kindSets.count - 1)) % kindSets.count
        let later = min(at + 1_000 + random.upTo(3_000), latest)
        return change + Self.refresh(who, at: later, StrategyPatch(publish: true, streams: kindSets[second]))
    }

    /// One of the fields an exchange may not change (TOK-4), changed: the service must refuse
    /// the exchange, whichever field it is.
    private static func changeImmutableField(of patch: inout ClaimsPatch, random: inout SplitMix64) {
        switch random.below(5) {
        case 0: patch.whipURL = "https://elsewhere.invalid/whip"
        case 1: patch.eventsURL = "https://elsewhere.invalid/events"
        case 2: patch.topic = "another-stage"
        case 3: patch.resource = "arn:aws:ivs:elsewhere:stage/other"
        default: patch.participantId = "replaced-participant"
        }
    }

    /// `patch` set at `at` and the strategy refreshed (STR-5).
    static func refresh(_ who: String, at: UInt64, _ patch: StrategyPatch) -> [ScenarioDraft.Step] {
        [.init(atMilliseconds: at, participant: who, call: .setStrategy(patch)), .init(atMilliseconds: at, participant: who, call: .refreshStrategy)]
    }

    /// Something happening to someone else while a client is cut off: another participant
    /// leaves and comes back, or exchanges its token (what a reconnect must catch up on, NET-3).
    private func churn(during partition: Partition, among participants: [ScenarioDraft.Participant], random: inout SplitMix64) -> [ScenarioDraft.Step] {
        let others = participants.filter { $0.name != partition.clientName }
        guard let who = random.pick(others)?.name else { return [] }
        let start = partition.start.nanoseconds / 1_000_000
        let span = max((partition.end.nanoseconds / 1_000_000).subtractingReportingOverflow(start).partialValue, 1)
        let at = start + random.upTo(span - 1)
        if random.percentChance(50) {
            let leave = ScenarioDraft.Step(atMilliseconds: at, participant: who, call: .leave)
            guard random.percentChance(50) else { return [leave] }
            return [leave, .init(atMilliseconds: at + span + 3_000 + random.upTo(5_000), participant: who, call: .join)]
        }
        var patch = ClaimsPatch()
        patch.userId = "\(who)-away\(random.upTo(9))"
        patch.attributes = ["role": "host"]
        patch.capabilities = Capabilities()
        patch.issuedAtSeconds = 0
        return [.init(atMilliseconds: at, participant: who, call: .exchangeToken(.patch(patch)))]
    }

    static func fault(_ partition: Partition) -> ScenarioDraft.Fault {
        ScenarioDraft.Fault(
            participant: partition.clientName, direction: partition.direction,
            fromMilliseconds: partition.start.nanoseconds / 1_000_000, toMilliseconds: partition.end.nanoseconds / 1_000_000
        )
    }
}
