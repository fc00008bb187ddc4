import Checking
import Drivers
import Foundation
import Scenario
import Signaling
import Simulation
import StageWorld

/// Hostile signaling frames arriving at a client on a live stage (SIG-8): the frames the
/// service really sent in a short run, damaged as JSON (a member removed, retyped, set to a
/// boundary number, or made to name another participant, the receiver itself included) or as
/// text. Each frame reaches its client in a copy of the world as it was at the end of that
/// run, with every invariant monitor watching. A frame the client refuses must leave the
/// client and the service exactly as they were; no frame may break an invariant.
struct FrameInputs: HostileInputTarget {
    let kind = HostileInputKind.frame
    /// The stage after its run, with the monitors that watched it.
    private let base: StepLoop
    /// The frames the service sent, each with the index of the client it reached.
    private let corpus: [(clientIndex: Int, frame: String)]
    private let identifiers: [String]

    /// Three participants on one stage, after `Self.stage` has run for its duration.
    init() throws {
        let scenario = try ScenarioLoader.parse(Self.stage, path: "hostile-frames-stage.yaml")
        var simulator = Simulator(world: scenario.makeWorld(seed: scenario.seed), seed: scenario.seed, monitors: MonitorSet())
        var corpus: [(clientIndex: Int, frame: String)] = []
        simulator.run(until: .zero + scenario.duration) { _, events, world in
            for event in events where event.observer != "server" {
                guard case .delivered(_, let frame) = event.kind, let index = world.clientIndex(named: event.observer) else { continue }
                corpus.append((index, frame))
            }
        }
        base = simulator.loop
        self.corpus = corpus
        identifiers = base.world.clients.map(\.view.local.info.participantId) + ["ghost", ""]
    }

    /// A stage where every kind of frame flows: joins, publishes, subscriptions, a mute, a
    /// token exchange and a leave.
    private static let stage = """
        name: hostile frames stage
        seed: 13
        duration: 6s
        participants:
          - {name: alice, sdk: mobile 1.37.0}
          - {name: bob, sdk: web 1.24.0}
          - name: carol
            strategy: {publish: false}
        steps:
          - {at: 0s, participant: alice, call: join}
          - {at: 0s, participant: bob, call: join}
          - {at: 100ms, participant: carol, call: join}
          - {at: 2s, participant: bob, call: setMuted, stream: audio, muted: true}
          - {at: 3s, participant: alice, call: exchangeToken, token: {userId: alice-2}}
          - {at: 4s, participant: carol, call: leave}
          - {at: 4500ms, participant: carol, call: join}
        """

    func input(_ random: inout SplitMix64) -> String {
        guard let original = random.pick(corpus) else { return "" }
        let body: String
        if random.chance(0.25) {
            body = Self.renamed(original.frame, identifiers: identifiers, random: &random)
        } else if random.chance(0.7), let json = try? JSONValue.parse(original.frame) {
            body = JSONMutator.mutate(json, identifiers: identifiers, random: &random).jsonText
        } else {
            body = TextMutator.mutate(original.frame, splices: ["\"type\":\"push\",", "{\"event\":\"ejected\"}", "1e400", "\\u0000"], random: &random)
        }
        return "\(original.clientIndex) \(body)"
    }

    /// The frame with every mention of one participant made to name another (or the
    /// receiver itself): well-formed, and about someone it should not be about.
    private static func renamed(_ frame: String, identifiers: [String], random: inout SplitMix64) -> String {
        let named = identifiers.filter { !$0.isEmpty && frame.contains("\"\($0)\"") }
        guard let old = random.pick(named), let new = random.pick(identifiers.filter { $0 != old }) else { return frame }
        return frame.replacingOccurrences(of: "\"\(old)\"", with: "\"\(new)\"")
    }

    func verdict(on input: String) -> InputVerdict {
        let scalars = input.unicodeScalars
        guard let space = scalars.firstIndex(of: " "), let clientIndex = Int(String(scalars[..<space])), base.world.clients.indices.contains(clientIndex) else {
            return .finding("the input names no client")
        }
        var loop = base
        let sequence = loop.world.pending.nextSequence
        loop.world.inject(frame: String(scalars[scalars.index(after: space)...]), toClient: clientIndex, at: loop.world.now)
        let step = loop.step(.fire(sequence: sequence))
        if let broken = step.violations.first {
            return .finding("the frame broke an invariant: \(broken)")
        }
        guard step.events.contains(where: \.isProtocolError) else { return .accepted }
        return loop.world.clients == base.world.clients && loop.world.server == base.world.server ? .rejected : .finding("a refused frame changed the world")
    }
}

extension TraceEvent {
    fileprivate var isProtocolError: Bool {
        if case .protocolError = kind { return true }
        return false
    }
}
