import StageCore
import Testing
@testable import StageWorld

/// Issue 13, point 2: a client checks each decoded message against what it knows. A message
/// that contradicts its state (about itself, a second join of a participant it has, events
/// about a participant it does not know, answers to nothing it asked) is a protocol error with
/// a reason (SIG-8) and changes nothing; the model's legitimate races stay accepted.
@Suite("Messages that contradict the client's state (SIG-8, RND-3)")
struct ClientContradictionTests {
    /// Frames that no correct run sends to alice once alice, bob and carol are on the stage.
    static let contradictions: [(frame: String, reason: String)] = [
        (Fixture.published(Fixture.publisher("alice")), "names this client"),
        (Fixture.notify(connectionId: "alice"), "names this client"),
        (Fixture.notify("connection.updated", connectionId: "alice"), "names this client"),
        (#"{"type":"notify","event_type":"connection.destroyed","connection_id":"alice"}"#, "names this client"),
        (Fixture.push(#"{"event":"participantUnpublished","participant_id":"alice"}"#), "names this client"),
        (Fixture.push(#"{"event":"participantInterrupted","participant_id":"alice"}"#), "names this client"),
        (Fixture.push(#"{"event":"participantReconnected","participant":\#(Fixture.info("alice"))}"#), "names this client"),
        (#"{"type":"re-offer","sdp":"v=0\r\na=msid:alice"}"#, "names this client"),
        (Fixture.notify(connectionId: "bob"), "already knows"),
        (Fixture.notify(connectionId: "carol"), "already knows"),
        (Fixture.published(Fixture.publisher("ghost")), "does not know"),
        (Fixture.notify("connection.updated", connectionId: "ghost"), "does not know"),
        (#"{"type":"notify","event_type":"connection.destroyed","connection_id":"ghost"}"#, "does not know"),
        (Fixture.push(#"{"event":"participantUnpublished","participant_id":"ghost"}"#), "does not know"),
        (Fixture.push(#"{"event":"participantInterrupted","participant_id":"ghost"}"#), "does not know"),
        (Fixture.push(#"{"event":"participantReconnected","participant":\#(Fixture.info("ghost"))}"#), "does not know"),
        (#"{"type":"re-offer","sdp":"v=0\r\na=msid:ghost"}"#, "does not know"),
        (Fixture.push(#"{"event":"participantUnpublished","participant_id":"carol"}"#), "not publishing"),
        (Fixture.push(#"{"event":"participantInterrupted","participant_id":"carol"}"#), "not publishing"),
        (#"{"type":"re-offer","sdp":"v=0\r\na=msid:carol"}"#, "not publishing"),
        (Fixture.offer(), "already connected"),
        (Fixture.push(#"{"event":"joinRejected","error":\#(Fixture.error())}"#), "already connected"),
        (Fixture.push(#"{"event":"exchangeAccepted","participant":\#(Fixture.info("alice"))}"#), "no token exchange"),
        (Fixture.push(#"{"event":"exchangeRejected","error":\#(Fixture.error(category: "exchangeToken"))}"#), "no token exchange"),
    ]

    @Test("a contradicting message is a protocol error with its reason, and the client is unchanged", arguments: contradictions)
    func contradictionRefused(frame: String, reason: String) {
        var world = threeClientStage()
        let before = world.clients[0]
        let events = deliverNow(frame, toClient: 0, in: &world)
        #expect(events.count == 1)
        guard case .protocolError(_, let logged) = events.first?.kind else {
            Issue.record("not a protocol error: \(events.map(\.detail))")
            return
        }
        #expect(logged.contains(reason), "\(logged)")
        #expect(world.clients[0] == before)
    }

    @Test("the issue's frames: no second join of alice for alice, and bob keeps his streams after a second connection.created")
    func issueFrames() {
        var world = threeClientStage()
        let shownBefore = world.clients[0].view["bob"]?.addedStreams
        _ = deliverNow(Fixture.published(Fixture.publisher("alice")), toClient: 0, in: &world)
        _ = deliverNow(Fixture.notify(connectionId: "bob"), toClient: 0, in: &world)
        #expect(world.clients[0].view["bob"]?.addedStreams == shownBefore)
        #expect(shownBefore?.count == 2)
        #expect(world.clients[0].view["alice"] == nil)
    }

    /// Messages a correct run can send: a reconnect the client never saw interrupted (it
    /// joined meanwhile, or the other's join was retried), a repeated interruption, a re-offer
    /// for a publisher it is already subscribed to (a subscribe sent again after a reconnect),
    /// an update of a participant that does not publish, and answers to a publish it no longer
    /// attempts (an unpublish overtook it).
    static let legitimate: [String] = [
        Fixture.push(#"{"event":"participantReconnected","participant":\#(Fixture.info("bob"))}"#),
        Fixture.push(#"{"event":"participantReconnected","participant":\#(Fixture.info("carol"))}"#),
        Fixture.push(#"{"event":"participantInterrupted","participant_id":"bob"}"#),
        #"{"type":"re-offer","sdp":"v=0\r\na=msid:bob"}"#,
        Fixture.notify("connection.updated", connectionId: "carol"),
        Fixture.push(#"{"event":"publishAccepted"}"#),
        Fixture.push(#"{"event":"publishRejected","error":\#(Fixture.error(code: "6", category: "publish"))}"#),
    ]

    @Test("a message the model can legitimately send is delivered, not refused", arguments: legitimate)
    func legitimateAccepted(frame: String) {
        var world = threeClientStage()
        let events = deliverNow(frame, toClient: 0, in: &world)
        #expect(events.first?.category == "delivered", "\(events.map(\.detail))")
    }

    @Test("an offer naming another connection id, or listing the client itself or one participant twice, does not connect the client")
    func offerContradictions() {
        let offers = [
            Fixture.offer(connectionId: "mallory"),
            Fixture.offer(metadata: #"{"publishers":[\#(Fixture.publisher("alice"))]}"#),
            Fixture.offer(metadata: #"{"publishers":[\#(Fixture.publisher("bob", streams: "[]")),\#(Fixture.publisher("bob", streams: "[]"))]}"#),
        ]
        for offer in offers {
            let client = ClientConfig(name: "alice", sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(signedToken("alice")), strategy: StrategySpec())
            var world = World(stageId: "stage-1", clients: [client], links: [:], defaultLink: LinkConditions(), seed: 1)
            world.scheduleHostCall(.join, clientIndex: 0, at: .zero)
            _ = world.apply(.fire(sequence: 0))
            let events = deliverNow(offer, toClient: 0, in: &world)
            #expect(events.map(\.category) == ["protocol-error"], "\(offer)")
            #expect(world.clients[0].view.local.connectionState == .connecting)
        }
    }
}
