@testable import Checking
import Simulation
import StageCore
import Testing
@testable import StageWorld

/// The monitors and the assertion of the fourth planted-bug sweep, each run over the model
/// itself (a lossless world driven in due-time order), so that each test fails against the bug
/// its monitor was written for, and shown a violating case built by hand.
@Suite("Fourth sweep monitors")
struct SweepFourMonitorTests {
    static let stage = "stage-1"

    static func claims(_ name: String, userId: String, capabilities: Capabilities = Capabilities()) -> TokenClaims {
        StageKeys.claims(participantId: name, stageId: stage, userId: userId, capabilities: capabilities)
    }

    static func token(_ claims: TokenClaims, by signer: TokenSigner = .app) -> String {
        StageKeys.standard.token(.signed(claims, by: signer))
    }

    /// A world of `clients`, every one joining at 0 s and then making `calls` (client name,
    /// seconds, call) in order, run until `seconds` with `monitor` watching every step.
    static func run(
        _ clients: [ClientConfig], calls: [(String, UInt64, HostCall)], until seconds: UInt64, with monitor: some InvariantMonitor
    ) throws -> (violations: [Violation], world: World) {
        var world = World(stageId: stage, clients: clients, links: [:], defaultLink: LinkConditions(), seed: 1)
        for client in clients {
            world.scheduleHostCall(.join, clientIndex: try #require(world.clientIndex(named: client.name)), at: .zero)
        }
        for (name, at, call) in calls {
            world.scheduleHostCall(call, clientIndex: try #require(world.clientIndex(named: name)), at: .seconds(at))
        }
        var monitors = MonitorSet([monitor])
        while let entry = world.pending.first, entry.due <= .seconds(seconds) {
            monitors.observe(world.apply(.fire(sequence: entry.sequence)), world: world)
        }
        monitors.finish(world: world)
        return (monitors.violations, world)
    }

    static func messages(_ monitor: some InvariantMonitor, _ event: TraceEvent, world: World) -> [String] {
        var monitors = MonitorSet([monitor])
        monitors.observe([event], world: world)
        return monitors.violations.map(\.message)
    }

    static func delivered(_ message: WireMessage, to observer: String) -> TraceEvent {
        TraceEvent(time: .seconds(9), observer: observer, kind: .delivered(message, frame: "{}"), peer: "server")
    }

    // MARK: TOK-5, exchange-adopts-the-accepted-token

    /// alice exchanges for a token the service refuses (one it issued, TOK-3) and half a
    /// second later for one it accepts.
    static func refusedThenAccepted() throws -> (violations: [Violation], world: World) {
        let alice = ClientConfig(name: "alice", token: .signed(claims("alice", userId: "alice-1"), by: .app))
        return try run([alice], calls: [
            ("alice", 2, .exchangeToken(token(claims("alice", userId: "alice-refused"), by: .service))),
            ("alice", 3, .exchangeToken(token(claims("alice", userId: "alice-2")))),
        ], until: 10, with: ExchangeAdoptionMonitor())
    }

    @Test("exchange-adopts-the-accepted-token: after a refused exchange, the next accepted one is the token the SDK holds")
    func refusedThenAcceptedHoldsTheAcceptedToken() throws {
        let (violations, world) = try Self.refusedThenAccepted()
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        let alice = try #require(world.clientIndex(named: "alice"))
        #expect(world.clients[alice].claims?.userId == "alice-2")
        #expect(world.clients[alice].pendingExchanges.isEmpty)
        #expect(world.server.participant("alice")?.info.userId == "alice-2")
    }

    @Test("exchange-adopts-the-accepted-token: an acceptance naming another identity than the held token is reported")
    func mismatchReported() throws {
        let world = try Self.refusedThenAccepted().world
        let accepted = ParticipantInfo(participantId: "alice", userId: "alice-refused", attributes: [:], capabilities: Capabilities())
        #expect(Self.messages(ExchangeAdoptionMonitor(), Self.delivered(.exchangeAccepted(accepted), to: "alice"), world: world)
            == ["the service accepted user=alice-refused {} publish=true subscribe=true, but the client holds a token for user=alice-2 {} publish=true subscribe=true"])
        let held = ParticipantInfo(participantId: "alice", userId: "alice-2", attributes: [:], capabilities: Capabilities())
        #expect(Self.messages(ExchangeAdoptionMonitor(), Self.delivered(.exchangeAccepted(held), to: "alice"), world: world).isEmpty)
    }

    // MARK: TOK-8, subscribe-gain-asks-the-strategy

    /// pub publishes; viewer joins unable to subscribe, turns its strategy's subscribe answer
    /// to audioOnly at 2 s without a refresh, and gains subscribing by exchange at 3 s.
    static func gainAfterQuietChange() throws -> (violations: [Violation], world: World) {
        let pub = ClientConfig(name: "pub", token: .signed(claims("pub", userId: "pub"), by: .app), strategy: StrategySpec(subscribe: .none))
        let viewer = ClientConfig(
            name: "viewer", token: .signed(claims("viewer", userId: "viewer", capabilities: Capabilities(canPublish: false, canSubscribe: false)), by: .app),
            strategy: StrategySpec(publish: false, subscribe: .audioVideo)
        )
        return try run([pub, viewer], calls: [
            ("viewer", 2, .setStrategy(StrategySpec(publish: false, subscribe: .audioOnly))),
            ("viewer", 3, .exchangeToken(token(claims("viewer", userId: "viewer", capabilities: Capabilities(canPublish: false, canSubscribe: true))))),
        ], until: 8, with: SubscribeGainMonitor())
    }

    @Test("subscribe-gain-asks-the-strategy: a capability gained after a quiet strategy change subscribes as the strategy answers now")
    func gainAsksTheStrategy() throws {
        let (violations, world) = try Self.gainAfterQuietChange()
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        let viewer = try #require(world.clientIndex(named: "viewer"))
        #expect(world.clients[viewer].view["pub"]?.requested == .audioOnly)
        #expect(world.clients[viewer].view["pub"]?.addedStreams.map(\.kind) == [.audio])
    }

    @Test("subscribe-gain-asks-the-strategy: a gain that keeps an answer the strategy no longer gives is reported; no gain is not judged")
    func keptAnswerReported() throws {
        var world = try Self.gainAfterQuietChange().world
        let viewer = try #require(world.clientIndex(named: "viewer"))
        world.clients[viewer].strategy.subscribe = .none
        func accepted(canSubscribe: Bool) -> TraceEvent {
            let info = ParticipantInfo(participantId: "viewer", userId: "viewer", attributes: [:], capabilities: Capabilities(canPublish: false, canSubscribe: canSubscribe))
            return Self.delivered(.exchangeAccepted(info), to: "viewer")
        }
        var unable = world
        unable.clients[viewer].view.local.info.capabilities.canSubscribe = false
        var monitor = SubscribeGainMonitor()
        #expect(monitor.observe(accepted(canSubscribe: true), index: 0, world: world).isEmpty, "no earlier capability known: not a gain")
        #expect(monitor.observe(accepted(canSubscribe: true), index: 1, world: world).isEmpty, "kept, not gained")
        #expect(monitor.observe(accepted(canSubscribe: false), index: 2, world: unable).isEmpty)
        #expect(monitor.observe(accepted(canSubscribe: true), index: 3, world: unable).isEmpty, "the SDK did not take it: no gain")
        #expect(monitor.observe(accepted(canSubscribe: true), index: 4, world: world).map(\.message)
            == ["subscribing was granted, and the strategy now answers none for pub, but the SDK asks for audioOnly"])
    }

    // MARK: LST-1, published-mutes-follow-the-strategy

    /// pub publishes audio and video; mutes its audio at 2 s; refreshes at 3 s.
    static func muteThenRefresh() throws -> (violations: [Violation], world: World) {
        let pub = ClientConfig(name: "pub", token: .signed(claims("pub", userId: "pub"), by: .app), strategy: StrategySpec(subscribe: .none))
        let viewer = ClientConfig(name: "viewer", token: .signed(claims("viewer", userId: "viewer"), by: .app), strategy: StrategySpec(publish: false))
        return try run([pub, viewer], calls: [
            ("pub", 2, .setMuted(.audio, true)),
            ("pub", 3, .refreshStrategy),
        ], until: 6, with: PublishedMuteMonitor())
    }

    @Test("published-mutes-follow-the-strategy: a refresh after setMuted returns the host's streams with the mute, and the stage holds it")
    func refreshAfterMuteKeepsIt() throws {
        let (violations, world) = try Self.muteThenRefresh()
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        let pub = try #require(world.clientIndex(named: "pub"))
        #expect(world.clients[pub].strategy.streams.map(\.isMuted) == [true, false])
        #expect(world.server.participant("pub")?.publishedStreams.map(\.isMuted) == [true, false])
    }

    @Test("published-mutes-follow-the-strategy: an answer with the declared streams in other mute states is reported; other streams are not judged")
    func answerWithOtherMutesReported() throws {
        let world = try Self.muteThenRefresh().world
        var report = StrategyQueryReport(canPublish: true)
        report.askedShouldPublish = true
        report.streamsReturned = [LocalStream(kind: .audio), LocalStream(kind: .video, isMuted: true)]
        let asked = TraceEvent(time: .seconds(9), observer: "pub", kind: .strategyQueried(report))
        // The stage's own check (held mutes against the answer) speaks too; only the answer's is read here.
        func answerMessages(_ event: TraceEvent) -> [String] {
            Self.messages(PublishedMuteMonitor(), event, world: world).filter { $0.hasPrefix("streamsToPublish") }
        }
        #expect(answerMessages(asked)
            == ["streamsToPublish returned [audio#0, video#0(muted)], but the host's streams, with its setMuted calls, are [audio#0, video#0]"])
        report.streamsReturned = [LocalStream(kind: .audio), LocalStream(kind: .video)]
        #expect(answerMessages(TraceEvent(time: .seconds(9), observer: "pub", kind: .strategyQueried(report))).isEmpty, "the declared streams")
        report.streamsReturned = [LocalStream(kind: .audio, instance: 1), LocalStream(kind: .video, instance: 1, isMuted: true)]
        #expect(answerMessages(TraceEvent(time: .seconds(9), observer: "pub", kind: .strategyQueried(report))).isEmpty,
                "a host strategy object's own streams")
    }
}
