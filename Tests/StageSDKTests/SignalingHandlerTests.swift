import Signaling
import StageCore
import StageWorld
import StageSDK
import Testing

/// SIG-7 through the Swift API: a user's raw and decoded signaling handlers, as a user would
/// attach them.
@Suite("Signaling handlers on a Stage (SIG-7)")
struct SignalingHandlerTests {
    @Test("onReceive sees every text frame; onReceiveSignaling sees the decoded messages, notify included")
    func bothHandlerLevels() throws {
        let simulation = StageSimulation(seed: 7, stageId: "demo")
        let alice = try addStage("alice", to: simulation)
        let bob = try addStage("bob", to: simulation)
        var frames: [String] = []
        var messages: [SignalingMessage] = []
        alice.stage.onReceive = { frames.append($0) }
        alice.stage.onReceiveSignaling = { messages.append($0) }
        try alice.stage.join()
        try simulation.run(for: .seconds(1))
        try bob.stage.join()
        try simulation.run(for: .seconds(7))
        #expect(frames.count == messages.count)
        #expect(alice.stage.signaling.receivedTotal == messages.count)
        #expect(alice.stage.signaling.protocolLog.isEmpty)
        #expect(frames.first?.hasPrefix(#"{"type":"offer""#) == true)
        let created = messages.contains { message in
            if case .notify(let notify) = message { return notify.eventType == .connectionCreated && notify.connectionId == "bob" }
            return false
        }
        #expect(created)
        #expect(messages.contains { $0.type == .ping })
        #expect(simulation.violations.isEmpty)
    }
}

/// SIG-2, SIG-3, SIG-5: what the stage's own frames say.
@Suite("Stage signaling frames (SIG-2, SIG-3, SIG-5)")
struct StageFrameTests {
    @Test("a connect frame carries the app's metadata verbatim, as the seed's examples show, and the token unaltered elsewhere")
    func connectFrameMetadataVerbatim() throws {
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let token = simulation.token(for: "alice")
        for (metadata, prefix) in [(JSONValue.string("contents"), #"{"type":"connect","metadata":"contents","#),
                                   (["key": "value"], #"{"type":"connect","metadata":{"key":"value"},"#)] {
            let envelope = Envelope(from: .client(0), to: .server, message: .join(token: token, metadata: ConnectMetadata(metadata: metadata)), epoch: 0, channelId: "demo")
            #expect(envelope.frame.hasPrefix(prefix))
            #expect(try envelope.decoded().get() == .join(token: token, metadata: ConnectMetadata(metadata: metadata)))
        }
        let bare = Envelope(from: .client(0), to: .server, message: .join(token: token), epoch: 0, channelId: "demo")
        #expect(!bare.frame.contains("\"metadata\""))
    }

    @Test("Stage.signalingConnectMetadata goes out verbatim and the stage still joins with its token (SIG-2, SIG-3, TOK-1)")
    func stageConnectMetadata() throws {
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let plain = try addStage("plain", to: simulation)
        let keyed = try addStage("keyed", to: simulation)
        plain.stage.signalingConnectMetadata = "contents"
        keyed.stage.signalingConnectMetadata = try JSONValue(encoding: ["key": "value"])
        keyed.stage.signalingConnectNotifyMetadata = ["seat": 7]
        var notifies: [SignalingNotify] = []
        plain.stage.onReceiveSignaling = { if case .notify(let notify) = $0 { notifies.append(notify) } }
        try plain.stage.join()
        try keyed.stage.join()
        try simulation.run(for: .seconds(1))

        let connects = simulation.trace.events.compactMap { event -> String? in
            guard event.observer == "server", case .delivered(.join, let frame) = event.kind else { return nil }
            return frame
        }
        #expect(connects.contains { $0.hasPrefix(#"{"type":"connect","metadata":"contents","#) })
        #expect(connects.contains { $0.hasPrefix(#"{"type":"connect","metadata":{"key":"value"},"#) })
        #expect(plain.renderer.events.contains(.connection(.connected, nil)))
        #expect(keyed.renderer.events.contains(.connection(.connected, nil)))
        #expect(notifies.first { $0.connectionId == "keyed" }?.metadataValue == ["seat": 7])
        #expect(simulation.violations.isEmpty)
    }

    /// The Sora page (sora-signaling-json.ja.txt): "どちらも Encodable プロトコルに準拠した値を指定
    /// します" (both take a value conforming to Encodable), and "基本的なデータ型 (Bool, Int, Float,
    /// String, Array, Dictionary) は Encodable に対応しているので、これらの値の組み合わせであれば
    /// エンコード処理を実装する必要はありません" (the basic types are Encodable, so combinations of
    /// them need no encoding code). Before seed audit 3 the properties were `JSONValue?`, and none
    /// of these assignments compiled.
    @Test("SIG-3: the connect metadata properties take any Encodable value, as the seed's Configuration does")
    func encodableConnectMetadata() throws {
        struct Seat: Encodable { var row: Int; var vip: Bool }
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let flag = try addStage("flag", to: simulation)
        let ratio = try addStage("ratio", to: simulation)
        let rows = try addStage("rows", to: simulation)
        let seat = try addStage("seat", to: simulation)
        let enabled = true
        let scale: Float = 0.1
        let counts: [String: Int] = ["b": 2, "a": 1]
        flag.stage.signalingConnectMetadata = enabled
        ratio.stage.signalingConnectMetadata = scale
        rows.stage.signalingConnectMetadata = [counts, [:]]
        seat.stage.signalingConnectMetadata = ["key": "value"]  // the seed's own example, a [String: String]
        seat.stage.signalingConnectNotifyMetadata = Seat(row: 3, vip: true)
        var notifies: [SignalingNotify] = []
        flag.stage.onReceiveSignaling = { if case .notify(let notify) = $0 { notifies.append(notify) } }
        for stage in [flag, ratio, rows, seat] { try stage.stage.join() }
        try simulation.run(for: .seconds(1))

        let connects = simulation.trace.events.compactMap { event -> String? in
            guard event.observer == "server", case .delivered(.join, let frame) = event.kind else { return nil }
            return frame
        }
        #expect(connects.contains { $0.hasPrefix(#"{"type":"connect","metadata":true,"#) })
        #expect(connects.contains { $0.hasPrefix(#"{"type":"connect","metadata":0.1,"#) })
        #expect(connects.contains { $0.hasPrefix(#"{"type":"connect","metadata":[{"a":1,"b":2},{}],"#) })
        #expect(connects.contains { $0.hasPrefix(#"{"type":"connect","metadata":{"key":"value"},"signaling_notify_metadata":{"row":3,"vip":true},"#) })
        #expect(notifies.first { $0.connectionId == "seat" }?.metadataValue == ["row": 3, "vip": true])
        #expect(simulation.violations.isEmpty)
    }

    @Test("SIG-3: connect metadata with no JSON form makes the first run throw, naming the stage and the member")
    func unencodableConnectMetadata() throws {
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let odd = try addStage("odd", to: simulation)
        odd.stage.signalingConnectNotifyMetadata = ["ratio": Double.nan]
        try odd.stage.join()
        #expect {
            try simulation.run(for: .seconds(1))
        } throws: { error in
            guard case StageSimulationError.metadataNotEncodable(let id, let member, _) = error else { return false }
            return id == "odd" && member == "notifyMetadata"
        }
        #expect(!simulation.hasStarted)
    }

    @Test("the offer names the participant by the connection id notify uses for it (SIG-1, SIG-5)")
    func offerConnectionId() throws {
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let alice = try addStage("alice", to: simulation)
        let bob = try addStage("bob", to: simulation)
        var aliceMessages: [SignalingMessage] = []
        var bobMessages: [SignalingMessage] = []
        alice.stage.onReceiveSignaling = { aliceMessages.append($0) }
        bob.stage.onReceiveSignaling = { bobMessages.append($0) }
        try alice.stage.join()
        try simulation.run(for: .seconds(1))
        try bob.stage.join()
        try simulation.run(for: .seconds(1))

        let offers = (alice: aliceMessages.compactMap(\.offer).first, bob: bobMessages.compactMap(\.offer).first)
        #expect(offers.alice?.connectionId == "alice")
        #expect(offers.bob?.connectionId == "bob")
        let created = aliceMessages.compactMap { message -> String? in
            if case .notify(let notify) = message, notify.eventType == .connectionCreated { return notify.connectionId }
            return nil
        }
        #expect(created == [offers.bob?.connectionId])
    }
}

@Suite("Offer and answer (SIG-1)")
struct OfferAnswerTests {
    @Test("a client answers the service's offer with an answer frame before anything else it sends")
    func answerFirst() throws {
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let token = simulation.token(for: "alice")
        var client = Client(config: ClientConfig(name: "alice", sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(token), strategy: StrategySpec()))
        _ = client.handle(.join, strategy: client.strategy, now: .zero)
        let publisher = PublisherSnapshot(
            info: ParticipantInfo(participantId: "bob", userId: "", isLocal: false, attributes: [:], capabilities: Capabilities()),
            streams: [StageStream(participantId: "bob", kind: .audio, isMuted: false)]
        )
        let output = client.handle(.joinAccepted([publisher], connectionId: "alice"), strategy: client.strategy)
        #expect(output.messages.first == .answer)
        #expect(output.messages.count > 1)
        let frame = Envelope(from: .client(0), to: .server, message: .answer, epoch: 1, channelId: "demo").frame
        #expect(frame == #"{"type":"answer","sdp":"v=0\r\n"}"#)
    }

    @Test("every offer a client receives is answered, and the answer changes nothing at the service")
    func everyOfferAnswered() throws {
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let alice = try addStage("alice", to: simulation)
        let bob = try addStage("bob", to: simulation)
        try alice.stage.join()
        try bob.stage.join()
        try simulation.run(for: .seconds(2))
        let offers = simulation.trace.events.filter { event in
            if case .delivered(.joinAccepted, _) = event.kind { return event.observer != "server" }
            return false
        }
        let answers = simulation.trace.events.filter { event in
            if case .delivered(.answer, _) = event.kind { return event.observer == "server" }
            return false
        }
        #expect(offers.count == 2)
        #expect(answers.count == offers.count)
        #expect(!simulation.trace.events.contains { $0.kind.isProtocolError })
        #expect(alice.renderer.shownStreams["bob"] == [.audio, .video])
        #expect(simulation.violations.isEmpty)
    }
}

@Suite("Re-offer and re-answer (SIG-1)")
struct ReOfferReAnswerTests {
    @Test("the service adds a subscribed publisher's media with a re-offer naming its stream, and the client re-answers it first")
    func reOfferAnswered() throws {
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        var client = Client(config: ClientConfig(name: "alice", sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(simulation.token(for: "alice")), strategy: StrategySpec()))
        _ = client.handle(.join, strategy: client.strategy, now: .zero)
        let bob = PublisherSnapshot(
            info: ParticipantInfo(participantId: "bob", userId: "", isLocal: false, attributes: [:], capabilities: Capabilities()),
            streams: [StageStream(participantId: "bob", kind: .audio, isMuted: false)]
        )
        _ = client.handle(.joinAccepted([bob], connectionId: "alice"), strategy: client.strategy)
        let output = client.handle(.subscribeAccepted(publisherId: "bob"), strategy: client.strategy)
        #expect(output.messages.first == .reAnswer)
        let reOffer = Envelope(from: .server, to: .client(0), message: .subscribeAccepted(publisherId: "bob"), epoch: 1, channelId: "demo")
        #expect(reOffer.frame == #"{"type":"re-offer","sdp":"v=0\r\na=msid:bob"}"#)
        #expect(reOffer.decoded() == .success(.subscribeAccepted(publisherId: "bob")))
        let reAnswer = Envelope(from: .client(0), to: .server, message: .reAnswer, epoch: 1, channelId: "demo")
        #expect(reAnswer.frame == #"{"type":"re-answer","sdp":"v=0\r\n"}"#)
    }

    @Test("no host call makes a client send a re-answer: its requests travel as x-stagesim-request")
    func requestsAreNotReAnswers() throws {
        let requests: [WireMessage] = [
            .publish([StageStream(participantId: "", kind: .audio, isMuted: true)], PublisherProperties()), .unpublish, .mute(.video, true),
            .subscribe(publisherId: "bob", .audioVideo), .unsubscribe(publisherId: "bob"), .exchangeToken("e30.e30.c2ln"),
        ]
        for request in requests {
            let envelope = Envelope(from: .client(0), to: .server, message: request, epoch: 1, channelId: "demo")
            #expect(envelope.frame.hasPrefix(#"{"type":"x-stagesim-request","sdp":"v=0\r\na=x-stagesim-"#), "\(request.summary)")
            #expect(envelope.decoded() == .success(request), "\(request.summary)")
        }
        let stray = Envelope(from: .client(0), to: .server, frame: #"{"type":"re-offer","sdp":"v=0\r\na=msid:bob"}"#, epoch: 1)
        if case .success = stray.decoded() { Issue.record("a re-offer arriving at the service must be a protocol error") }
    }

    @Test("on a lossy stage every re-answer the service hears follows a re-offer, and every re-offer heard is answered", arguments: [UInt64(3), 8, 21])
    func reAnswersFollowReOffers(seed: UInt64) throws {
        let simulation = StageSimulation(seed: seed, stageId: "demo", network: LinkConditions(latencyMean: .milliseconds(40), lossProbability: 0.2))
        let stages = try ["alice", "bob", "carol"].map { try addStage($0, to: simulation) }
        for stage in stages { try stage.stage.join() }
        try simulation.run(for: .seconds(20))
        var reOffersHeard = 0, reAnswersHeard = 0
        for event in simulation.trace.events {
            guard case .delivered(let message, _) = event.kind else { continue }
            if message == .reAnswer, event.observer == "server" { reAnswersHeard += 1 }
            if case .subscribeAccepted = message, event.observer != "server" { reOffersHeard += 1 }
            #expect(reAnswersHeard <= reOffersHeard, "a re-answer reached the service before the re-offer it answers")
        }
        #expect(reOffersHeard >= 6)
        #expect(reAnswersHeard == reOffersHeard)
    }
}

extension TraceEvent.Kind {
    fileprivate var isProtocolError: Bool {
        if case .protocolError = self { return true }
        return false
    }
}

extension SignalingMessage {
    /// The offer this message is, if it is one.
    fileprivate var offer: SignalingOffer? {
        if case .offer(let offer) = self { return offer }
        return nil
    }
}
