import Simulation
import StageWorld

/// Draws a random valid scenario from a seed (the fuzzer's generator): participants with
/// random SDK kinds, capabilities, attributes and strategies; joins, strategy changes and
/// refreshes, mutes, token exchanges, leaves and rejoins; and a swarm fault plan (each fault
/// kind on or off per seed). Every drawn parameter is listed in `parameters`.
public struct ScenarioGenerator: Sendable {
    /// Fixed participant count and run length, or nil to draw them (2...8 participants, 20...60 s).
    public var participantCount: Int?
    public var durationSeconds: UInt64?

    public init(participantCount: Int? = nil, durationSeconds: UInt64? = nil) {
        self.participantCount = participantCount
        self.durationSeconds = durationSeconds
    }

    static let sdks = ["mobile 1.37.0", "mobile 1.36.0", "web 1.24.0", "composition"]
    static let answers = ["none", "audioOnly", "audioVideo"]

    public func draft(seed: UInt64) -> (draft: ScenarioDraft, parameters: [String]) {
        var random = SplitMix64.stream(seed: seed, name: "generator")
        let count = participantCount ?? 2 + random.below(7)
        let duration = durationSeconds ?? 20 + random.upTo(40)
        let participants = (1...count).map { participant(number: $0, random: &random) }
        var steps = participants.map { ScenarioDraft.Step(atMilliseconds: random.upTo(3_000), participant: $0.name, call: "join", arguments: []) }
        for _ in 0..<(3 + random.below(13)) {
            steps += event(among: participants, before: duration, random: &random)
        }
        let swarm = SwarmFaults(seed: seed, clientNames: participants.map(\.name), duration: .seconds(duration))
        for partition in swarm.plan.partitions where random.percentChance(60) {
            steps += churn(during: partition, among: participants, random: &random)
        }
        steps.sort { $0.atMilliseconds < $1.atMilliseconds }
        var draft = ScenarioDraft(
            name: "generated from seed \(seed)", seed: seed, durationSeconds: duration, network: Self.networkKeys(swarm.link),
            faults: swarm.plan.partitions.map(Self.fault), participants: participants, steps: steps, comments: []
        )
        if random.percentChance(50) {
            draft.keepalive = ["pingInterval: \(1 + random.upTo(2))s", "pongTimeout: \(1 + random.upTo(3))s"]
        }
        let cast = participants.map { "\($0.name)=\($0.sdk) caps=\($0.capabilities.joined(separator: "+")) publish=\($0.publish) subscribe=\($0.subscribe)" }
        let keepalive = draft.keepalive.isEmpty ? "keepalive=default" : "keepalive: " + draft.keepalive.joined(separator: ", ")
        return (draft, ["participants=\(count) duration=\(duration)s steps=\(steps.count) \(keepalive)"] + cast
            + ["faults: " + swarm.parameters.joined(separator: ", ")])
    }

    private func participant(number: Int, random: inout SplitMix64) -> ScenarioDraft.Participant {
        let capabilities = random.percentChance(80) ? ["publish", "subscribe"] : (random.percentChance(50) ? ["subscribe"] : ["publish"])
        return ScenarioDraft.Participant(
            name: "p\(number)", sdk: random.pick(Self.sdks) ?? "web 1.24.0", userId: "user-\(number)",
            attributes: random.percentChance(50) ? ["role": random.pick(["guest", "host", "moderator"]) ?? "guest"] : [:],
            capabilities: capabilities, publish: random.percentChance(70), subscribe: random.pick(Self.answers) ?? "audioVideo"
        )
    }

    /// One host-driven event at a random time in the first 70% of the run (so that the end is
    /// quiet and convergence is judged): new answers and a refresh (sometimes returning a new
    /// stream instance with its own mute state), a mute, a token exchange, or a leave and a rejoin.
    private func event(among participants: [ScenarioDraft.Participant], before duration: UInt64, random: inout SplitMix64) -> [ScenarioDraft.Step] {
        let who = random.pick(participants)?.name ?? "p1"
        let at = 1_000 + random.upTo(max(duration * 700, 5_000) - 1_000)
        switch random.below(4) {
        case 0:
            let instance = random.percentChance(30)
                ? ", streams: [{kind: audio, instance: \(1 + random.upTo(5)), muted: \(random.percentChance(50))}, video]" : ""
            let strategy = "strategy: {publish: \(random.percentChance(60)), subscribe: \(random.pick(Self.answers) ?? "audioVideo")\(instance)}"
            return [.init(atMilliseconds: at, participant: who, call: "setStrategy", arguments: [strategy]),
                    .init(atMilliseconds: at, participant: who, call: "refreshStrategy", arguments: [])]
        case 1:
            return [.init(atMilliseconds: at, participant: who, call: "setMuted",
                          arguments: ["stream: \(random.percentChance(50) ? "audio" : "video")", "muted: \(random.percentChance(50))"])]
        case 2:
            let caps = random.percentChance(70) ? "[publish, subscribe]" : (random.percentChance(50) ? "[subscribe]" : "[publish]")
            let topic = random.percentChance(10) ? ", whipUrl: \"https://elsewhere.invalid/whip\"" : ""
            let token = "token: {userId: \"\(who)-v\(random.upTo(9))\", attributes: {role: \(random.pick(["guest", "host"]) ?? "guest")}, "
                + "capabilities: \(caps), issuedAt: 0s\(topic)}"
            return [.init(atMilliseconds: at, participant: who, call: "exchangeToken", arguments: [token])]
        default:
            return [.init(atMilliseconds: at, participant: who, call: "leave", arguments: []),
                    .init(atMilliseconds: at + 500 + random.upTo(3_000), participant: who, call: "join", arguments: [])]
        }
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
            let leave = ScenarioDraft.Step(atMilliseconds: at, participant: who, call: "leave", arguments: [])
            guard random.percentChance(50) else { return [leave] }
            return [leave, .init(atMilliseconds: at + span + 3_000 + random.upTo(5_000), participant: who, call: "join", arguments: [])]
        }
        let token = "token: {userId: \"\(who)-away\(random.upTo(9))\", attributes: {role: host}, capabilities: [publish, subscribe], issuedAt: 0s}"
        return [.init(atMilliseconds: at, participant: who, call: "exchangeToken", arguments: [token])]
    }

    static func networkKeys(_ link: LinkConditions) -> [String] {
        var keys: [String] = []
        if link.lossProbability > 0 { keys.append("loss: \(link.lossProbability)") }
        if link.jitterMax > .zero { keys += ["jitter: \(link.jitterMax.nanoseconds / 1_000_000)ms", "jitterDistribution: \(link.jitterDistribution.rawValue)"] }
        if link.duplicationProbability > 0 { keys.append("duplicate: \(link.duplicationProbability)") }
        if link.reorderProbability > 0 { keys.append("reorder: \(link.reorderProbability)") }
        if let bits = link.signalingBitsPerSecond { keys.append("signalingKbps: \(bits / 1000)") }
        return keys
    }

    static func fault(_ partition: Partition) -> ScenarioDraft.Fault {
        ScenarioDraft.Fault(
            participant: partition.clientName, direction: partition.direction.rawValue,
            fromMilliseconds: partition.start.nanoseconds / 1_000_000, toMilliseconds: partition.end.nanoseconds / 1_000_000
        )
    }
}
