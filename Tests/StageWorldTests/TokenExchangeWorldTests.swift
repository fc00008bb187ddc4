import Checking
import Drivers
import Simulation
import StageCore
@testable import StageWorld
import Testing

private let mobile137 = SDKKind.mobile(SemanticVersion(1, 37, 0))
private let mobile136 = SDKKind.mobile(SemanticVersion(1, 36, 0))
private let web140 = SDKKind.web(SemanticVersion(1, 40, 0))

/// Claims for `participantId` on stage-1 (app URLs, valid for an hour from t = 0).
private func stageClaims(_ participantId: String, userId: String = "", attributes: Attributes = [:], capabilities: Capabilities = Capabilities()) -> TokenClaims {
    StageKeys.claims(participantId: participantId, stageId: "stage-1", userId: userId, attributes: attributes, capabilities: capabilities)
}

private func token(_ claims: TokenClaims, by signer: TokenSigner = .app) -> String {
    StageKeys.standard.token(.signed(claims, by: signer))
}

/// A world on stage-1 with default links; joins every client in name order, 10 ms apart.
private func joinedWorld(_ clients: [ClientConfig], seed: UInt64 = 7) -> World {
    var world = World(stageId: "stage-1", clients: clients, links: [:], defaultLink: LinkConditions(), seed: seed)
    for index in world.clients.indices {
        world.scheduleHostCall(.join, clientIndex: index, at: .milliseconds(UInt64(index) * 10))
    }
    return world
}

/// Runs the simulator to `end`; every invariant monitor sees each action's events with the
/// world right after that action, and the end-of-run checks see the final world.
private func run(_ world: World, seed: UInt64 = 7, until end: VirtualTime = .seconds(5)) -> (world: World, events: [TraceEvent], violations: [Violation]) {
    var simulator = Simulator(world: world, seed: seed)
    var events: [TraceEvent] = []
    var monitors = MonitorSet()
    simulator.run(until: end) { _, new, after in
        events += new
        monitors.observe(new, world: after)
    }
    monitors.finish(world: simulator.world)
    return (simulator.world, events, monitors.violations)
}

/// What the service holds about a participant apart from its streams: who it is, on which
/// connection, with which token.
private struct ServiceIdentity: Equatable {
    var info: ParticipantInfo
    var clientIndex: Int
    var claims: TokenClaims
    var origin: TokenOrigin

    init?(_ participant: ServerParticipant?) {
        guard let participant else { return nil }
        info = participant.info
        clientIndex = participant.clientIndex
        claims = participant.claims
        origin = participant.origin
    }
}

private extension TraceEvent {
    var deliveredMessage: WireMessage? {
        if case .delivered(let message, _) = kind { return message }
        return nil
    }

    var serviceEvent: ServiceEvent? {
        if case .service(let event) = kind { return event }
        return nil
    }

    var sdkError: SDKErrorReport? {
        if case .sdkError(let report) = kind { return report }
        return nil
    }

    var isExchangeTokenHostCall: Bool {
        if case .hostCall(.exchangeToken) = kind { return true }
        return false
    }
}

private extension WireMessage {
    var isExchangeToken: Bool {
        if case .exchangeToken = self { return true }
        return false
    }

    var isParticipantUpdated: Bool {
        if case .participantUpdated = self { return true }
        return false
    }
}

/// The metadata world: alice (mobile 1.37.0) publishes and exchanges her token; bob (mobile
/// 1.37.0), carol (web) and dave (mobile 1.36.0) watch. Everyone publishes and subscribes.
private func metadataWorld(aliceClaims: TokenClaims = stageClaims("alice", userId: "u-old"), aliceSigner: TokenSigner = .app, aliceSDK: SDKKind = mobile137) -> World {
    joinedWorld([
        ClientConfig(name: "alice", sdk: aliceSDK, token: .raw(token(aliceClaims, by: aliceSigner)), strategy: StrategySpec()),
        ClientConfig(name: "bob", sdk: mobile137, token: .raw(token(stageClaims("bob"))), strategy: StrategySpec()),
        ClientConfig(name: "carol", sdk: web140, token: .raw(token(stageClaims("carol"))), strategy: StrategySpec()),
        ClientConfig(name: "dave", sdk: mobile136, token: .raw(token(stageClaims("dave"))), strategy: StrategySpec()),
    ])
}

/// Runs `world` with `call` by `caller` at 1 s, and alice muting her audio at 2 s (so every
/// observer gets later events about her).
private func runExchange(_ world: World, _ call: HostCall, caller: String = "alice") -> (world: World, events: [TraceEvent], callIndex: Int, violations: [Violation]) {
    var world = world
    world.scheduleHostCall(call, clientIndex: world.clientIndex(named: caller)!, at: .seconds(1))
    world.scheduleHostCall(.setMuted(.audio, true), clientIndex: world.clientIndex(named: "alice")!, at: .seconds(2))
    let (final, events, violations) = run(world)
    let callIndex = events.firstIndex { $0.isExchangeTokenHostCall } ?? -1
    return (final, events, callIndex, violations)
}

@Suite("Token exchange in the world (TOK-3..5, TOK-10, VIS)")
struct TokenExchangeWorldTests {
    @Test("TOK-5/VIS-3: a userId exchange on a publisher reaches mobile 1.37.0 at once and no web or 1.36.0 observer")
    func userIdExchangeOnPublisher() throws {
        let newToken = token(stageClaims("alice", userId: "u-new"))
        let (world, events, callIndex, found) = runExchange(metadataWorld(), .exchangeToken(newToken))
        try #require(callIndex >= 0)
        let aliceIndex = try #require(world.clientIndex(named: "alice"))

        // alice was publishing before the exchange.
        #expect(events[..<callIndex].contains { $0.serviceEvent == .publishing(stageClaims("alice", userId: "u-old").participantInfo(isLocal: false)) })
        // The service verified it and holds the new userId.
        let updates = events.compactMap { event -> ParticipantInfo? in
            if case .metadataUpdated(let info) = event.serviceEvent { return info }
            return nil
        }
        #expect(updates.map(\.participantId) == ["alice"])
        #expect(updates.map(\.userId) == ["u-new"])
        #expect(world.server.participant("alice")?.info.userId == "u-new")
        #expect(world.server.participant("alice")?.claims.userId == "u-new")
        // alice herself: the token is adopted, no reconnect.
        #expect(world.clients[aliceIndex].token == newToken)
        #expect(world.clients[aliceIndex].pendingExchanges.isEmpty)
        #expect(world.clients[aliceIndex].view.local.info.userId == "u-new")
        let aliceConnections = events.filter { $0.observer == "alice" }.compactMap(\.rendererEvent).compactMap {
            if case .connectionStateChanged(let state, _) = $0 { return state }
            return nil
        }
        #expect(aliceConnections == [.connecting, .connected])
        #expect(events.filter { $0.observer == "alice" }.compactMap(\.sdkError).isEmpty)

        func metadataEvents(_ observer: String) -> [ParticipantInfo] {
            events.filter { $0.observer == observer }.compactMap(\.rendererEvent).compactMap {
                if case .participantMetadataDidUpdate(let info) = $0 { return info }
                return nil
            }
        }
        func laterEventsAboutAlice(_ observer: String) -> [RendererEvent] {
            events[callIndex...].filter { $0.observer == observer }.compactMap(\.rendererEvent)
                .filter { $0.participant?.participantId == "alice" && $0.name != "participantMetadataDidUpdate" }
        }
        // mobile 1.37.0: exactly one metadata event, with the new userId, and later events keep it.
        let bobSees = metadataEvents("bob")
        #expect(bobSees.map(\.participantId) == ["alice"])
        #expect(bobSees.map(\.userId) == ["u-new"])
        #expect(bobSees.allSatisfy { !$0.isLocal })
        #expect(!laterEventsAboutAlice("bob").isEmpty)
        #expect(laterEventsAboutAlice("bob").allSatisfy { $0.participant?.userId == "u-new" })
        // web and mobile 1.36.0: nothing, and later events keep the old userId (VIS-3).
        for observer in ["carol", "dave"] {
            #expect(metadataEvents(observer).isEmpty, "\(observer) must not get participantMetadataDidUpdate")
            let later = laterEventsAboutAlice(observer)
            #expect(later.contains { $0.name == "didChangeMutedStreams" }, "\(observer) hears alice's mute")
            #expect(later.allSatisfy { $0.participant?.userId == "u-old" }, "\(observer) must keep alice's old userId")
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test("TOK-4: an exchange that changes an immutable field is refused at once and nothing is sent", arguments: ["topic", "resource", "jti", "whip_url", "events_url"])
    func immutableFieldRefusedAtOnce(field: String) throws {
        let current = stageClaims("alice", userId: "u-old")
        var changed = current
        changed.userId = "u-new"
        switch field {
        case "topic": changed.topic = "stage-2"
        case "resource": changed.resource = StageKeys.resource(forStage: "stage-2")
        case "jti": changed.participantId = "mallory"
        case "whip_url": changed.whipURL = "https://elsewhere.invalid/whip"
        default: changed.eventsURL = "wss://elsewhere.invalid/events"
        }
        let world = metadataWorld(aliceClaims: current)
        let serverBefore = try #require(run(world, until: .milliseconds(900)).world.server.participant("alice"))
        let (final, events, callIndex, found) = runExchange(world, .exchangeToken(token(changed)))
        try #require(callIndex >= 0)

        let refusal = try #require(events.dropFirst(callIndex + 1).first)
        #expect(refusal.observer == "alice")
        #expect(refusal.time == events[callIndex].time, "refused at once")
        let report = try #require(refusal.sdkError)
        #expect(report.operation == "exchangeToken")
        #expect(report.error.code == .tokenNotAllowed)
        #expect(report.reason.contains("'\(field)'"))
        #expect(!events.contains { $0.deliveredMessage?.isExchangeToken == true }, "nothing reaches the service")
        #expect(!events.contains { if case .refused = $0.serviceEvent { true } else { false } })
        let aliceIndex = try #require(final.clientIndex(named: "alice"))
        #expect(final.clients[aliceIndex].token == token(current))
        #expect(final.clients[aliceIndex].claims == current)
        #expect(final.clients[aliceIndex].pendingExchanges.isEmpty)
        #expect(ServiceIdentity(final.server.participant("alice")) == ServiceIdentity(serverBefore))
        #expect(found.isEmpty, "\(found)")
    }

    @Test("TOK-4: an unreadable token is refused at once with TOKEN_MALFORMED and nothing is sent")
    func unreadableTokenRefusedAtOnce() throws {
        let (final, events, callIndex, found) = runExchange(metadataWorld(), .exchangeToken("not.a-token"))
        try #require(callIndex >= 0)
        let refusal = try #require(events.dropFirst(callIndex + 1).first)
        #expect(refusal.time == events[callIndex].time)
        #expect(refusal.sdkError?.error.code == .tokenMalformed)
        #expect(!events.contains { $0.deliveredMessage?.isExchangeToken == true })
        #expect(final.server.participant("alice")?.info.userId == "u-old")
        #expect(found.isEmpty, "\(found)")
    }

    @Test("TOK-1/TOK-5: an exchanged token signed by an unknown key is rejected by the service and nothing changes")
    func unknownSignerRejected() throws {
        let current = stageClaims("alice", userId: "u-old", attributes: ["role": "guest"])
        var forged = current
        forged.userId = "u-forged"
        forged.attributes = ["role": "admin"]
        let world = metadataWorld(aliceClaims: current)
        let serverBefore = try #require(run(world, until: .milliseconds(900)).world.server.participant("alice"))
        let (final, events, _, found) = runExchange(world, .exchangeToken(token(forged, by: .unknown)))

        #expect(events.contains { $0.observer == "server" && $0.deliveredMessage?.isExchangeToken == true }, "the SDK cannot verify: it asks the service")
        let rejections = events.filter { $0.observer == "alice" }.compactMap { event -> StageError? in
            if case .exchangeRejected(let error, _) = event.deliveredMessage { return error }
            return nil
        }
        #expect(rejections.map(\.code) == [.tokenNotAllowed])
        #expect(events.filter { $0.observer == "alice" }.compactMap(\.sdkError).map(\.error.code) == [.tokenNotAllowed])
        #expect(ServiceIdentity(final.server.participant("alice")) == ServiceIdentity(serverBefore), "the service's participant info is unchanged")
        #expect(!events.contains { if case .metadataUpdated = $0.serviceEvent { true } else { false } })
        #expect(!events.contains { $0.deliveredMessage?.isParticipantUpdated == true })
        let aliceIndex = try #require(final.clientIndex(named: "alice"))
        #expect(final.clients[aliceIndex].token == token(current))
        #expect(final.clients[aliceIndex].pendingExchanges.isEmpty)
        #expect(final.clients[aliceIndex].view.local.info.userId == "u-old")
        #expect(!events.contains { $0.rendererEvent?.name == "participantMetadataDidUpdate" })
        #expect(found.isEmpty, "\(found)")
    }

    @Test("TOK-3: a participant that joined with a service-issued token cannot exchange")
    func serviceIssuedJoinTokenCannotExchange() throws {
        let current = stageClaims("alice", userId: "u-old")
        var next = current
        next.userId = "u-new"
        let world = metadataWorld(aliceClaims: current, aliceSigner: .service)
        let before = try #require(run(world, until: .milliseconds(900)).world.server.participant("alice"))
        #expect(before.origin == .service)
        let (final, events, _, found) = runExchange(world, .exchangeToken(token(next, by: .app)))

        let rejections = events.filter { $0.observer == "alice" }.compactMap { event -> String? in
            if case .exchangeRejected(_, let reason) = event.deliveredMessage { return reason }
            return nil
        }
        #expect(rejections.count == 1)
        #expect(rejections.allSatisfy { $0.contains("TOK-3") })
        let refused = events.compactMap { event -> String? in
            if case .refused(let operation, _, _) = event.serviceEvent { return operation }
            return nil
        }
        #expect(refused == ["exchangeToken"])
        #expect(ServiceIdentity(final.server.participant("alice")) == ServiceIdentity(before))
        #expect(!events.contains { $0.deliveredMessage?.isParticipantUpdated == true })
        let aliceIndex = try #require(final.clientIndex(named: "alice"))
        #expect(final.clients[aliceIndex].token == token(current, by: .service))
        #expect(found.isEmpty, "\(found)")
    }

    @Test("TOK-3: a key-pair participant cannot exchange to a service-issued token")
    func exchangeToServiceIssuedTokenRefused() throws {
        let current = stageClaims("alice", userId: "u-old")
        var next = current
        next.userId = "u-new"
        let world = metadataWorld(aliceClaims: current)
        let before = try #require(run(world, until: .milliseconds(900)).world.server.participant("alice"))
        let (final, events, _, found) = runExchange(world, .exchangeToken(token(next, by: .service)))
        let reasons = events.filter { $0.observer == "alice" }.compactMap(\.sdkError).map(\.reason)
        #expect(reasons.count == 1)
        #expect(reasons.allSatisfy { $0.contains("TOK-3") })
        #expect(ServiceIdentity(final.server.participant("alice")) == ServiceIdentity(before))
        #expect(!events.contains { $0.deliveredMessage?.isParticipantUpdated == true })
        #expect(found.isEmpty, "\(found)")
    }

    @Test("exchangeToken is a mobile-only API: a web client's call is refused at once", arguments: [web140, SDKKind.composition])
    func webClientCannotExchange(sdk: SDKKind) throws {
        let current = stageClaims("alice", userId: "u-old")
        var next = current
        next.userId = "u-new"
        let (final, events, callIndex, found) = runExchange(metadataWorld(aliceClaims: current, aliceSDK: sdk), .exchangeToken(token(next)))
        try #require(callIndex >= 0)
        let refusal = try #require(events.dropFirst(callIndex + 1).first)
        #expect(refusal.observer == "alice")
        #expect(refusal.time == events[callIndex].time)
        #expect(refusal.sdkError?.operation == "exchangeToken")
        #expect(!events.contains { $0.deliveredMessage?.isExchangeToken == true })
        #expect(final.server.participant("alice")?.info.userId == "u-old")
        let aliceIndex = try #require(final.clientIndex(named: "alice"))
        #expect(final.clients[aliceIndex].token == token(current))
        #expect(found.isEmpty, "\(found)")
    }

    @Test("TOK-7: losing the publish capability by exchange unpublishes at once, without asking the strategy, and observers see alice leave")
    func publishLostInWorld() throws {
        var next = stageClaims("alice", userId: "u-old")
        next.capabilities = Capabilities(canPublish: false, canSubscribe: true)
        let (final, events, callIndex, found) = runExchange(metadataWorld(), .exchangeToken(token(next)))
        try #require(callIndex >= 0)
        let after = events[callIndex...]
        #expect(!after.contains { event in
            if event.observer == "alice", case .strategyQueried(let report) = event.kind { return report.askedShouldPublish }
            return false
        }, "TOK-7: the strategy is not asked")
        let alicePublish = after.filter { $0.observer == "alice" }.compactMap(\.rendererEvent).filter { $0.name == "publishState" }
        #expect(alicePublish.compactMap(\.stateName) == ["notPublished"])
        #expect(after.contains { $0.observer == "server" && $0.deliveredMessage == .unpublish })
        #expect(final.server.participant("alice")?.publishedStreams.isEmpty == true)
        #expect(final.server.publisherCount == 3)
        for observer in ["bob", "carol", "dave"] {
            #expect(after.contains { $0.observer == observer && $0.rendererEvent?.name == "participantDidLeave" && $0.rendererEvent?.participant?.participantId == "alice" }, "\(observer)")
        }
        #expect(!after.contains { $0.observer == "server" && { if case .publish = $0.deliveredMessage { true } else { false } }($0) }, "no publish (and no mute) after losing the capability")
        #expect(found.isEmpty, "\(found)")
    }

    @Test("TOK-6: gaining the publish capability by exchange asks the strategy at once and publishes")
    func publishGainedInWorld() throws {
        let current = stageClaims("alice", userId: "u-old", capabilities: Capabilities(canPublish: false, canSubscribe: true))
        var next = current
        next.capabilities = Capabilities()
        let (final, events, callIndex, found) = runExchange(metadataWorld(aliceClaims: current), .exchangeToken(token(next)))
        try #require(callIndex >= 0)
        func ownPublishState(_ event: TraceEvent) -> Bool {
            event.observer == "alice" && event.rendererEvent?.name == "publishState" && event.rendererEvent?.participant?.isLocal == true
        }
        #expect(!events[..<callIndex].contains(where: ownPublishState), "no publish before the exchange")
        let accepted = try #require(events.firstIndex { $0.observer == "alice" && { if case .exchangeAccepted = $0.deliveredMessage { true } else { false } }($0) })
        let asked = try #require(events.dropFirst(accepted + 1).first)
        guard case .strategyQueried(let report) = asked.kind else {
            Issue.record("expected the strategy to be asked right after exchangeAccepted, got \(asked.detail)")
            return
        }
        #expect(report.askedShouldPublish && report.canPublish)
        #expect(asked.time == events[accepted].time)
        let alicePublish = events.filter(ownPublishState).compactMap(\.rendererEvent)
        #expect(alicePublish.compactMap(\.stateName) == ["attemptingPublish", "published"])
        #expect(final.server.participant("alice")?.publishedStreams.count == 2)
        #expect(final.server.publisherCount == 4)
        #expect(found.isEmpty, "\(found)")
    }

    @Test("TOK-5..7: two overlapping exchanges end with the second token's info and capabilities on both sides")
    func overlappingExchanges() throws {
        var first = stageClaims("alice", userId: "u-old")
        first.userId = "u-mid"
        var second = first
        second.userId = "u-new"
        second.capabilities = Capabilities(canPublish: false, canSubscribe: true)
        var world = metadataWorld()
        let alice = try #require(world.clientIndex(named: "alice"))
        world.scheduleHostCall(.exchangeToken(token(first)), clientIndex: alice, at: .seconds(1))
        world.scheduleHostCall(.exchangeToken(token(second)), clientIndex: alice, at: .milliseconds(1_001))
        let (final, events, found) = run(world)

        #expect(final.server.participant("alice")?.info.userId == "u-new")
        #expect(final.server.participant("alice")?.info.capabilities.canPublish == false)
        #expect(final.clients[alice].token == token(second))
        #expect(final.clients[alice].view.local.info.userId == "u-new", "alice's own info matches the service's")
        #expect(final.clients[alice].view.local.info.capabilities.canPublish == false)
        #expect(final.clients[alice].view.local.publishState == .notPublished, "TOK-7: no longer allowed to publish")
        #expect(final.server.participant("alice")?.publishedStreams.isEmpty == true)
        #expect(events.filter { $0.observer == "alice" }.compactMap(\.sdkError).isEmpty)
        #expect(found.isEmpty, "\(found)")
    }

    @Test("STR-1/VIS-2: an attribute changed before publishing decides the subscribe answer when the participant publishes")
    func silentUpdateReachesStrategy() throws {
        let moderatorsHidden = StrategySpec(rules: [SubscribeRule(attributes: ["role": "moderator"], answer: .none)])
        let current = stageClaims("alice", userId: "u-old", attributes: ["role": "guest"])
        var next = current
        next.attributes = ["role": "moderator"]
        var world = joinedWorld([
            ClientConfig(name: "alice", sdk: mobile137, token: .raw(token(current)), strategy: StrategySpec(publish: false)),
            ClientConfig(name: "bob", sdk: mobile137, token: .raw(token(stageClaims("bob"))), strategy: moderatorsHidden),
        ])
        let alice = try #require(world.clientIndex(named: "alice"))
        world.scheduleHostCall(.exchangeToken(token(next)), clientIndex: alice, at: .seconds(1))
        world.scheduleHostCall(.setStrategy(StrategySpec()), clientIndex: alice, at: .seconds(2))
        world.scheduleHostCall(.refreshStrategy, clientIndex: alice, at: .seconds(2))
        let (_, events, found) = run(world)

        let bobAboutAlice = events.filter { $0.observer == "bob" }.compactMap(\.rendererEvent).filter { $0.participant?.participantId == "alice" }
        #expect(bobAboutAlice.first == .participantDidJoin(next.participantInfo(isLocal: false)), "VIS-2: the join shows the new attributes")
        #expect(!bobAboutAlice.contains { $0.name == "didAddStreams" }, "bob's strategy hides moderators")
        #expect(!events.contains { $0.observer == "server" && $0.deliveredMessage == .subscribe(publisherId: "alice", .audioVideo) })
        #expect(found.isEmpty, "\(found)")
    }

    @Test("TOK-10: a second connection with the same jti ejects the first")
    func tokenReuseEjectsEarlierConnection() throws {
        let shared = token(stageClaims("alice", userId: "u-1"))
        var world = World(
            stageId: "stage-1",
            clients: [
                ClientConfig(name: "phone", sdk: mobile137, token: .raw(shared), strategy: StrategySpec()),
                ClientConfig(name: "bob", sdk: web140, token: .raw(token(stageClaims("bob"))), strategy: StrategySpec()),
                ClientConfig(name: "tablet", sdk: mobile137, token: .raw(shared), strategy: StrategySpec()),
            ],
            links: [:], defaultLink: LinkConditions(), seed: 3
        )
        let phone = try #require(world.clientIndex(named: "phone"))
        let tablet = try #require(world.clientIndex(named: "tablet"))
        world.scheduleHostCall(.join, clientIndex: phone, at: .zero)
        world.scheduleHostCall(.join, clientIndex: world.clientIndex(named: "bob")!, at: .milliseconds(10))
        world.scheduleHostCall(.join, clientIndex: tablet, at: .seconds(1))
        let before = run(world, until: .milliseconds(900)).world
        #expect(before.server.participant("alice")?.clientIndex == phone)
        let (final, events, found) = run(world)

        #expect(events.filter { $0.serviceEvent == .ejected(participantId: "alice", reason: "token-reused") }.count == 1)
        let ejections = events.filter { if case .ejected = $0.deliveredMessage { true } else { false } }
        #expect(ejections.map(\.observer) == ["phone"])
        let phoneEvents = events.filter { $0.observer == "phone" }.compactMap(\.rendererEvent)
        let last = try #require(phoneEvents.last)
        #expect(last.name == "connectionState")
        #expect(last.stateName == "disconnected")
        #expect(last.error?.code == .participantDisconnected)
        #expect(final.clients[phone].view.local.connectionState == .disconnected)
        #expect(final.clients[tablet].view.local.connectionState == .connected)
        let holders = final.server.participants.filter { $0.info.participantId == "alice" }
        #expect(holders.count == 1)
        #expect(holders.first?.clientIndex == tablet)
        #expect(final.server.participants.map(\.info.participantId) == ["alice", "bob"])
        // bob sees the first alice leave before the second one joins.
        let bobAboutAlice = events.filter { $0.observer == "bob" }.compactMap(\.rendererEvent)
            .filter { $0.participant?.participantId == "alice" && ($0.name == "participantDidJoin" || $0.name == "participantDidLeave") }
            .map(\.name)
        #expect(bobAboutAlice == ["participantDidJoin", "participantDidLeave", "participantDidJoin"])
        #expect(found.isEmpty, "\(found)")
    }
}

@Suite("Stage service join verification (TOK-1)")
struct StageServerJoinTests {
    static let bad: [(name: String, token: String, now: VirtualTime, code: StageErrorCode)] = [
        ("raw garbage", "garbage", .zero, .tokenMalformed),
        ("three garbage segments", "a.b.c", .zero, .tokenMalformed),
        ("expired", StageKeys.standard.token(.signed(StageKeys.claims(participantId: "late", stageId: "stage-1", validForSeconds: 10), by: .app)), .seconds(20), .tokenExpired),
        ("expiring exactly now", StageKeys.standard.token(.signed(StageKeys.claims(participantId: "late", stageId: "stage-1", validForSeconds: 10), by: .app)), .seconds(10), .tokenExpired),
        ("revoked key", StageKeys.standard.token(.signed(StageKeys.claims(participantId: "old", stageId: "stage-1"), by: .revoked)), .zero, .tokenNotAllowed),
        ("unknown key", StageKeys.standard.token(.signed(StageKeys.claims(participantId: "rogue", stageId: "stage-1"), by: .unknown)), .zero, .tokenNotAllowed),
        ("another stage", StageKeys.standard.token(.signed(StageKeys.claims(participantId: "lost", stageId: "stage-2"), by: .app)), .zero, .tokenNotAllowed),
    ]

    @Test("TOK-1: a bad join token is rejected with its code and nobody is admitted", arguments: 0..<bad.count)
    func badJoinToken(case number: Int) throws {
        let (name, badToken, now, code) = Self.bad[number]
        var server = StageServer(config: WorldConfig(stageId: "stage-1", clients: []))
        let reply = server.handle(.join(token: badToken), from: 0, epoch: 1, now: now)
        try #require(reply.outgoing.count == 1, "\(name)")
        #expect(reply.outgoing[0].clientIndex == 0)
        guard case .joinRejected(let error, _) = reply.outgoing[0].message else {
            Issue.record("\(name): expected joinRejected, got \(reply.outgoing[0].message.summary)")
            return
        }
        #expect(error.code == code, "\(name)")
        #expect(error.category == .join)
        #expect(error.isFatal)
        #expect(reply.events.count == 1)
        if case .refused(let operation, let refusedError, _) = reply.events.first {
            #expect(operation == "join")
            #expect(refusedError == error)
        } else {
            Issue.record("\(name): expected a refused service event")
        }
        #expect(server.participants.isEmpty, "\(name)")
    }

    @Test("TOK-1: a valid token just before expiry is admitted")
    func validTokenAdmitted() {
        var server = StageServer(config: WorldConfig(stageId: "stage-1", clients: []))
        let claims = StageKeys.claims(participantId: "ok", stageId: "stage-1", userId: "u", validForSeconds: 10)
        let reply = server.handle(.join(token: StageKeys.standard.token(.signed(claims, by: .app))), from: 0, epoch: 1, now: .milliseconds(9_999))
        #expect(reply.outgoing.map(\.message) == [.joinAccepted([], connectionId: "ok")])
        #expect(server.participants.map(\.info) == [claims.participantInfo(isLocal: false)])
        #expect(server.participants.first?.origin == .keyPair)
    }
}
