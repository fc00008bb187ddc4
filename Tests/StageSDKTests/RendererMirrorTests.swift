import StageCore
import StageSDK
import StageWorld
import Testing

/// RND-1 through the Swift API: a stage's renderers get exactly the trace's renderer events
/// for that participant, in trace order, with the same participant info, states, streams and
/// connection errors. The monitors judge the trace; this test judges the adapter between the
/// trace and the app's renderer objects, which no monitor sees.
@Suite("Renderer callbacks mirror the trace (RND-1)")
struct RendererMirrorTests {
    /// One renderer callback as the app receives it (a publish or subscribe state change's
    /// error goes to the error delegate, not the renderer).
    enum Call: Hashable {
        case joined(ParticipantInfo)
        case left(ParticipantInfo)
        case publish(ParticipantInfo, PublishState)
        case subscribe(ParticipantInfo, SubscribeState)
        case added(ParticipantInfo, [StageStream])
        case removed(ParticipantInfo, [StageStream])
        case muted(ParticipantInfo, [StageStream])
        case connection(ConnectionState, StageError?)
        case metadata(ParticipantInfo)

        /// The call a renderer event should become, written out here rather than through the
        /// adapter under test.
        init(_ event: RendererEvent) {
            switch event {
            case .participantDidJoin(let info): self = .joined(info)
            case .participantDidLeave(let info): self = .left(info)
            case .publishStateChanged(let info, let state, _): self = .publish(info, state)
            case .subscribeStateChanged(let info, let state, _): self = .subscribe(info, state)
            case .didAddStreams(let info, let streams): self = .added(info, streams)
            case .didRemoveStreams(let info, let streams): self = .removed(info, streams)
            case .didChangeMutedStreams(let info, let streams): self = .muted(info, streams)
            case .connectionStateChanged(let state, let error): self = .connection(state, error)
            case .participantMetadataDidUpdate(let info): self = .metadata(info)
            }
        }

        /// The callback's name, to show every kind was exercised.
        var kind: String {
            switch self {
            case .joined: "joined"
            case .left: "left"
            case .publish: "publish"
            case .subscribe: "subscribe"
            case .added: "added"
            case .removed: "removed"
            case .muted: "muted"
            case .connection: "connection"
            case .metadata: "metadata"
            }
        }
    }

    /// Records every callback, whatever its kind, as a `Call`.
    final class MirrorRenderer: StageRenderer {
        private(set) var calls: [Call] = []

        func stage(_ stage: Stage, participantDidJoin participant: ParticipantInfo) { calls.append(.joined(participant)) }
        func stage(_ stage: Stage, participantDidLeave participant: ParticipantInfo) { calls.append(.left(participant)) }
        func stage(_ stage: Stage, participant: ParticipantInfo, didChange publishState: PublishState) { calls.append(.publish(participant, publishState)) }
        func stage(_ stage: Stage, participant: ParticipantInfo, didChange subscribeState: SubscribeState) { calls.append(.subscribe(participant, subscribeState)) }
        func stage(_ stage: Stage, participant: ParticipantInfo, didAdd streams: [StageStream]) { calls.append(.added(participant, streams)) }
        func stage(_ stage: Stage, participant: ParticipantInfo, didRemove streams: [StageStream]) { calls.append(.removed(participant, streams)) }
        func stage(_ stage: Stage, participant: ParticipantInfo, didChangeMutedStreams streams: [StageStream]) { calls.append(.muted(participant, streams)) }
        func stage(_ stage: Stage, didChange connectionState: ConnectionState, withError error: StageError?) { calls.append(.connection(connectionState, error)) }
        func stage(_ stage: Stage, participantMetadataDidUpdate participant: ParticipantInfo) { calls.append(.metadata(participant)) }
    }

    /// A seeded run over a lossy, jittery network that reaches every callback: joins, a mute,
    /// a token exchange that renames a participant, a leave and a rejoin, and a strategy
    /// refresh that stops publishing and drops video. Returns each stage's renderer.
    static func run(seed: UInt64) throws -> (simulation: StageSimulation, renderers: [String: MirrorRenderer]) {
        let network = LinkConditions(latencyMean: .milliseconds(30), jitterMax: .milliseconds(20), lossProbability: 0.05)
        let simulation = StageSimulation(seed: seed, stageId: "mirror", network: network)
        var renderers: [String: MirrorRenderer] = [:]
        var stages: [String: (stage: Stage, strategy: VideoChatStrategy)] = [:]
        for name in ["ana", "ben", "cai"] {
            let strategy = VideoChatStrategy()
            let stage = try Stage(token: simulation.token(for: name, userId: "\(name)-1"), strategy: strategy)
            let renderer = MirrorRenderer()
            stage.addRenderer(renderer)
            try simulation.add(stage)
            try stage.join()
            (renderers[name], stages[name]) = (renderer, (stage, strategy))
        }
        try simulation.run(for: .seconds(3))
        stages["ana"]?.strategy.microphone.setMuted(true)
        stages["ben"]?.stage.exchangeToken(simulation.token(for: "ben", userId: "ben-2"))
        try simulation.run(for: .seconds(2))
        stages["cai"]?.stage.leave()
        try simulation.run(for: .seconds(2))
        try stages["cai"]?.stage.join()
        try simulation.run(for: .seconds(3))
        stages["ana"]?.strategy.isInBackground = true
        stages["ana"]?.stage.refreshStrategy()
        try simulation.run(for: .seconds(3))
        return (simulation, renderers)
    }

    @Test("each stage's renderer calls are its trace's renderer events, in order", arguments: 1...8 as ClosedRange<UInt64>)
    func callsMirrorTheTrace(seed: UInt64) throws {
        let (simulation, renderers) = try Self.run(seed: seed)
        for (name, renderer) in renderers.sorted(by: { $0.key < $1.key }) {
            let expected = simulation.trace.events.compactMap { event in
                event.observer == name ? event.rendererEvent.map(Call.init) : nil
            }
            #expect(!expected.isEmpty)
            let firstDifference = (0..<min(renderer.calls.count, expected.count)).first { renderer.calls[$0] != expected[$0] } ?? min(renderer.calls.count, expected.count)
            #expect(renderer.calls == expected, "seed \(seed), \(name): call \(firstDifference) is \(renderer.calls.dropFirst(firstDifference).first.map { "\($0)" } ?? "missing"), the trace says \(expected.dropFirst(firstDifference).first.map { "\($0)" } ?? "nothing")")
        }
        #expect(simulation.violations.isEmpty, "seed \(seed): \(simulation.violations)")
    }

    @Test("the runs reach every kind of callback")
    func everyKindIsReached() throws {
        let kinds = try (UInt64(1)...8).reduce(into: Set<String>()) { kinds, seed in
            for renderer in try Self.run(seed: seed).renderers.values { kinds.formUnion(renderer.calls.map(\.kind)) }
        }
        #expect(kinds == ["joined", "left", "publish", "subscribe", "added", "removed", "muted", "connection", "metadata"])
    }
}
