import Testing
import Signaling

/// Every message type at least twice: all fields set, and only the required ones.
let sampleMessages: [SignalingMessage] = [
    .connect(SignalingConnect(role: .sendrecv, channelId: "sora")),
    .connect(SignalingConnect(
        role: .recvonly, channelId: "チャンネル", clientId: "client-1", metadata: ["key": "value", "n": [1, 2]],
        notifyMetadata: .null, multistream: true, simulcast: false, sdp: "v=0\r\na=x-stagesim-token:e30.e30.c2ln\r\n")),
    .connect(SignalingConnect(role: .other("future-role"), channelId: "x", metadata: "contents")),
    .offer(SignalingOffer(sdp: "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n", connectionId: "CONN1")),
    .offer(SignalingOffer(sdp: "v=0", connectionId: "CONN2", clientId: "c2", metadata: ["token": "abc"])),
    .answer(SignalingAnswer(sdp: "v=0\r\n")),
    .update(SignalingUpdate(sdp: "v=0 update")),
    .reOffer(SignalingReOffer(sdp: "v=0 re-offer")),
    .reAnswer(SignalingReAnswer(sdp: "v=0 re-answer")),
    .request(SignalingRequest(sdp: "v=0\r\na=x-stagesim-unpublish:")),
    .candidate(SignalingCandidate(candidate: "candidate:1 1 UDP 2122252543 192.0.2.1 49152 typ host")),
    .notify(SignalingNotify(eventType: .connectionCreated)),
    .notify(SignalingNotify(
        eventType: .connectionCreated, connectionId: "CONN3", clientId: "c3", role: .sendonly,
        metadata: ["name": "太郎"], authnMetadata: ["user": 1], authzMetadata: [true, .null],
        channelConnections: 3, channelSendrecvConnections: 1, channelSendonlyConnections: 1, channelRecvonlyConnections: 1)),
    .notify(SignalingNotify(eventType: .connectionUpdated, connectionId: "CONN3")),
    .notify(SignalingNotify(eventType: .connectionDestroyed, connectionId: "CONN3", metadata: .null)),
    .notify(SignalingNotify(eventType: .other("spotlight.changed"))),
    .ping(SignalingPing()),
    .ping(SignalingPing(stats: true)),
    .pong(SignalingPong()),
    .pong(SignalingPong(stats: [["type": "inbound-rtp", "bytesReceived": 1024]])),
    .disconnect(SignalingDisconnect()),
    .disconnect(SignalingDisconnect(reason: "NO-ERROR")),
    .push(SignalingPush(data: ["message": "hello", "count": 1])),
    .push(SignalingPush(data: .null)),
    .push(SignalingPush(data: nil)),
]

@Suite("Signaling messages (SIG-1, SIG-2, SIG-5)")
struct SignalingMessageTests {
    @Test("the samples cover every message type")
    func coverage() {
        #expect(Set(sampleMessages.map(\.type)) == Set(SignalingMessageType.allCases))
    }

    @Test("every message round-trips through its frame", arguments: sampleMessages)
    func roundTrip(_ message: SignalingMessage) throws {
        let frame = message.frame
        #expect(SignalingMessage.decode(frame: frame) == .success(message))
        #expect(frame.hasPrefix(#"{"type":"\#(message.type.rawValue)""#))
        #expect(sameBytes(try JSONValue.parse(frame).jsonText, frame))
    }

    @Test("type strings are Sora's spelling")
    func typeStrings() {
        #expect(SignalingMessageType.allCases.map(\.rawValue) == [
            "connect", "offer", "answer", "update", "re-offer", "re-answer", "candidate", "notify", "ping", "pong", "disconnect", "push",
            "x-stagesim-request",
        ])
    }

    @Test("frames use snake_case member names with type first")
    func exactFrames() {
        #expect(SignalingMessage.answer(SignalingAnswer(sdp: "v=0\r\n")).frame == #"{"type":"answer","sdp":"v=0\r\n"}"#)
        #expect(SignalingMessage.reOffer(SignalingReOffer(sdp: "s")).frame == #"{"type":"re-offer","sdp":"s"}"#)
        #expect(SignalingMessage.connect(SignalingConnect(role: .sendonly, channelId: "c", clientId: "id", notifyMetadata: ["a": 1])).frame
            == #"{"type":"connect","signaling_notify_metadata":{"a":1},"role":"sendonly","channel_id":"c","client_id":"id"}"#)
        #expect(SignalingMessage.notify(SignalingNotify(eventType: .connectionCreated, connectionId: "X", authnMetadata: "n", authzMetadata: "z")).frame
            == #"{"type":"notify","event_type":"connection.created","connection_id":"X","authn_metadata":"n","authz_metadata":"z"}"#)
        #expect(SignalingMessage.ping(SignalingPing(stats: false)).frame == #"{"type":"ping","stats":false}"#)
        #expect(SignalingMessage.disconnect(SignalingDisconnect()).frame == #"{"type":"disconnect"}"#)
    }

    @Test("a server notify with whitespace, unknown members and counts decodes")
    func serverNotify() {
        let frame = """
            {
              "type": "notify", "event_type": "connection.created", "role": "sendrecv",
              "connection_id": "S5Q2", "client_id": "S5Q2", "channel_connections": 2,
              "channel_sendrecv_connections": 2.0, "channel_sendonly_connections": 0,
              "channel_recvonly_connections": 0, "minutes": 0, "unknown_future_member": {"x": []},
              "metadata": {"name": "花子", "age": 20}, "authn_metadata": null, "authz_metadata": [1e400]
            }
            """
        guard case .success(.notify(let notify)) = SignalingMessage.decode(frame: frame) else {
            Issue.record("notify did not decode")
            return
        }
        #expect(notify.eventType == .connectionCreated)
        #expect(notify.role == .sendrecv)
        #expect(notify.connectionId == "S5Q2")
        #expect(notify.channelConnections == 2 && notify.channelSendrecvConnections == 2)
        #expect(notify.metadataValue?["name"] == "花子")
        #expect(notify.authnMetadataValue == .null)
        #expect(notify.authzMetadataValue?.jsonText == "[1e400]")
    }

    @Test("SIG-2: push data is Any? (the Sora page): absent is nil, null is a value, neither an error")
    func pushDataIsOptional() {
        #expect(SignalingMessage.decode(frame: #"{"type":"push"}"#) == .success(.push(SignalingPush(data: nil))))
        #expect(SignalingMessage.decode(frame: #"{"type":"push","data":null}"#) == .success(.push(SignalingPush(data: .null))))
        #expect(SignalingMessage.push(SignalingPush(data: nil)).frame == #"{"type":"push"}"#)
    }

    @Test("unknown event types are kept as text")
    func unknownEvent() {
        let decoded = SignalingMessage.decode(frame: #"{"type":"notify","event_type":"network.status"}"#)
        #expect(decoded == .success(.notify(SignalingNotify(eventType: .other("network.status")))))
        #expect(NotifyEventType(text: "connection.destroyed") == .connectionDestroyed)
        #expect(NotifyEventType.other("x.y").text == "x.y")
    }

    @Test("SIG-2: metadata carriers have the documented direction")
    func directions() {
        #expect(SignalingMessage.connect(SignalingConnect(role: .sendrecv, channelId: "c")).direction == .clientToServer)
        #expect(SignalingMessage.notify(SignalingNotify(eventType: .connectionCreated)).direction == .serverToClient)
        #expect(SignalingMessage.push(SignalingPush(data: 1)).direction == .serverToClient)
        #expect(SignalingMessage.update(SignalingUpdate(sdp: "")).direction == .both)
        #expect(SignalingMessage.ping(SignalingPing()).direction == .serverToClient)
        #expect(SignalingMessage.pong(SignalingPong()).direction == .clientToServer)
        #expect(SignalingDirection.clientToServer.mayArrive(at: .server))
        #expect(!SignalingDirection.clientToServer.mayArrive(at: .client))
        #expect(SignalingDirection.both.mayArrive(at: .client) && SignalingDirection.both.mayArrive(at: .server))
    }

    @Test("typed optional members that are null count as absent")
    func nullOptionals() {
        let decoded = SignalingMessage.decode(frame: #"{"type":"offer","sdp":"s","connection_id":"c","client_id":null}"#)
        #expect(decoded == .success(.offer(SignalingOffer(sdp: "s", connectionId: "c"))))
    }
}
