import Testing
import Signaling

@Suite("Signaling endpoint (SIG-7, SIG-8)")
struct SignalingEndpointTests {
    private let offerFrame = SignalingMessage.offer(SignalingOffer(sdp: "v=0", connectionId: "C1")).frame
    private let notifyFrame = SignalingMessage.notify(SignalingNotify(eventType: .connectionCreated, metadata: ["k": "v"])).frame

    @Test("good frames reach both handler levels and are counted")
    func goodFrames() {
        var endpoint = SignalingEndpoint()
        let delivery = endpoint.receive(.text(notifyFrame))
        #expect(delivery.rawText == notifyFrame)
        #expect(delivery.raw == .text(notifyFrame))
        #expect(delivery.message?.type == .notify)
        #expect(delivery.error == nil)
        _ = endpoint.receive(.text(offerFrame))
        _ = endpoint.receive(.text(notifyFrame))
        #expect(endpoint.receivedCount(of: .notify) == 2)
        #expect(endpoint.receivedCount(of: .offer) == 1)
        #expect(endpoint.receivedTotal == 3)
        #expect(endpoint.protocolLog.isEmpty)
    }

    @Test("bad frames are logged protocol errors and change nothing else")
    func badFramesKeepState() {
        var endpoint = SignalingEndpoint(side: .client)
        _ = endpoint.receive(.text(offerFrame))
        let before = endpoint
        let bad: [(SignalingFrame, SignalingProtocolError)] = [
            (.binary([1, 2, 3]), .binaryFrame(byteCount: 3)),
            (.text("{not json"), .notJSON(JSONParseError(offset: 1, kind: .unexpectedCharacter(found: "'n'", expected: "a string key")))),
            (.text("[]"), .notAnObject(found: "array")),
            (.text(#"{"type":"hello"}"#), .unknownType("hello")),
            (.text(#"{"type":"offer"}"#), .missingField(type: "offer", field: "sdp")),
            (.text(SignalingMessage.connect(SignalingConnect(role: .sendrecv, channelId: "c")).frame), .wrongDirection(type: "connect", side: .client)),
        ]
        for (index, (frame, expected)) in bad.enumerated() {
            let delivery = endpoint.receive(frame)
            #expect(delivery.error == expected)
            #expect(delivery.message == nil)
            #expect(delivery.raw == frame)
            #expect(endpoint.protocolLog.count == index + 1)
            #expect(endpoint.protocolLog.last == "protocol error: \(expected)")
        }
        #expect(endpoint.receivedCounts == before.receivedCounts)
        #expect(endpoint.side == before.side)
        #expect(endpoint.receive(.binary([])).rawText == nil)
        let after = endpoint.receive(.text(offerFrame))
        #expect(after.message?.type == .offer)
        #expect(endpoint.receivedCount(of: .offer) == 2)
    }

    @Test("a server-side endpoint accepts client messages and refuses server ones")
    func serverSide() {
        var endpoint = SignalingEndpoint(side: .server)
        let connect = SignalingMessage.connect(SignalingConnect(role: .sendrecv, channelId: "c", metadata: "contents"))
        #expect(endpoint.receive(.text(connect.frame)).message == connect)
        #expect(endpoint.receive(.text(SignalingMessage.update(SignalingUpdate(sdp: "a")).frame)).message != nil)
        #expect(endpoint.receive(.text(notifyFrame)).error == .wrongDirection(type: "notify", side: .server))
        #expect(endpoint.receive(.text(SignalingMessage.push(SignalingPush(data: 1)).frame)).error == .wrongDirection(type: "push", side: .server))
        #expect(endpoint.receivedTotal == 2)
        #expect(endpoint.protocolLog.count == 2)
    }
}
