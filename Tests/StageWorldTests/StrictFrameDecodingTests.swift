import Signaling
import StageCore
import Testing
@testable import StageWorld

/// Issue 13, point 7: decoding is strict. A member the stage reads that is missing or has the
/// wrong type (or an impossible value) makes the frame a protocol error (SIG-8); it is never
/// read as absent or as a default. Members the stage does not know are ignored.
@Suite("Strict frame decoding (SIG-8, SIG-1, SIG-5)")
struct StrictFrameDecodingTests {
    static let bob = Fixture.publisher()

    /// Offers (`joinAccepted`) whose publisher list is missing, mistyped or contradicts itself.
    static let malformedOffers: [String] = [
        #"{"type":"offer","sdp":"v=0\r\n","connection_id":"alice"}"#,
        Fixture.offer(metadata: "1"),
        Fixture.offer(metadata: "null"),
        Fixture.offer(metadata: #""publishers""#),
        Fixture.offer(metadata: "{}"),
        Fixture.offer(metadata: #"{"publishers":1}"#),
        Fixture.offer(metadata: #"{"publishers":null}"#),
        Fixture.offer(metadata: #"{"publishers":{}}"#),
        Fixture.offer(metadata: #"{"publishers":[1]}"#),
        Fixture.offer(metadata: #"{"publishers":[null]}"#),
        Fixture.offer(metadata: #"{"publishers":[\#(bob),\#(bob)]}"#),
        Fixture.offer(connectionId: "not an id"),
        Fixture.offer(connectionId: ""),
    ]

    /// Publisher snapshots (in an offer and in participantPublished) with one member broken.
    static let malformedPublishers: [String] = [
        #"{"streams":[],"video_sdp":\#(Fixture.videoSDP()),"created_ns":5}"#,
        Fixture.publisher(participant: "1"),
        Fixture.publisher(streamNumber: "-1"),
        Fixture.publisher(streamNumber: #""1""#),
        Fixture.publisher(participant: "null"),
        Fixture.publisher(streams: #""audio""#),
        Fixture.publisher(streams: "[1]"),
        Fixture.publisher(streams: "[\(Fixture.stream(kind: "smell"))]"),
        Fixture.publisher(streams: #"[{"participant_id":"bob","kind":5,"muted":false}]"#),
        Fixture.publisher(streams: "[\(Fixture.stream(muted: #""false""#))]"),
        Fixture.publisher(streams: "[\(Fixture.stream(muted: "null"))]"),
        Fixture.publisher(streams: #"[{"participant_id":"bob","kind":"audio"}]"#),
        Fixture.publisher(streams: "[\(Fixture.stream("carol"))]"),
        Fixture.publisher(streams: "[\(Fixture.stream()),\(Fixture.stream(muted: "true"))]"),
        Fixture.publisher(videoSDP: "5"),
        Fixture.publisher(videoSDP: "null"),
        Fixture.publisher(videoSDP: Fixture.videoSDP(Fixture.layerLines)),
        Fixture.publisher(videoSDP: Fixture.videoSDP([Fixture.videoLine, Fixture.videoLine] + Fixture.layerLines)),
        Fixture.publisher(videoSDP: Fixture.videoSDP(["a=x-stagesim-video:fallback=true kind=camera size=720x1280 fps=30"] + Fixture.layerLines)),
        Fixture.publisher(videoSDP: Fixture.videoSDP(["a=x-stagesim-video:fallback=yes type=camera size=720x1280 fps=30"] + Fixture.layerLines)),
        Fixture.publisher(videoSDP: Fixture.videoSDP(["a=x-stagesim-video:fallback=true type=camera size=720x1280x2 fps=30"] + Fixture.layerLines)),
        Fixture.publisher(videoSDP: Fixture.videoSDP([Fixture.videoLine, "a=x-stagesim-layer:low 1000 10", "a=x-stagesim-layer:low 2000 20"])),
        Fixture.publisher(videoSDP: Fixture.videoSDP([Fixture.videoLine, "a=x-stagesim-layer:low 1000"])),
        Fixture.publisher(created: #""5""#),
        Fixture.publisher(created: "1.5"),
        Fixture.publisher(created: "null"),
        Fixture.publisher(created: "-1"),
    ]

    /// Participant infos (in a publisher, notify authn_metadata, exchangeAccepted) with one member broken.
    static let malformedInfos: [String] = [
        #"{"user_id":"u","attributes":{},"allow_publish":true,"allow_subscribe":true}"#,
        Fixture.info("not an id"),
        #"{"participant_id":7,"user_id":"u","attributes":{},"allow_publish":true,"allow_subscribe":true}"#,
        #"{"participant_id":"bob","user_id":null,"attributes":{},"allow_publish":true,"allow_subscribe":true}"#,
        #"{"participant_id":"bob","attributes":{},"allow_publish":true,"allow_subscribe":true}"#,
        Fixture.info(attributes: "[]"),
        Fixture.info(attributes: #"{"seat":7}"#),
        Fixture.info(attributes: "null"),
        Fixture.info(attributes: #"{"big":"\#(String(repeating: "x", count: 1_100))"}"#),
        Fixture.info(allowPublish: #""yes""#),
        Fixture.info(allowPublish: "1"),
        #"{"participant_id":"bob","user_id":"u","attributes":{},"allow_subscribe":true}"#,
    ]

    /// Stage push events with a member missing or mistyped.
    static let malformedPushEvents: [String] = [
        #"{"event":"joinRejected"}"#,
        #"{"event":"joinRejected","error":"no"}"#,
        #"{"event":"joinRejected","error":\#(Fixture.error(code: #""8""#))}"#,
        #"{"event":"joinRejected","error":\#(Fixture.error(code: "99"))}"#,
        #"{"event":"joinRejected","error":\#(Fixture.error(code: "8.5"))}"#,
        #"{"event":"joinRejected","error":\#(Fixture.error(code: "null"))}"#,
        #"{"event":"joinRejected","error":\#(Fixture.error(category: "dance"))}"#,
        #"{"event":"joinRejected","error":\#(Fixture.error(category: "publish"))}"#,
        #"{"event":"joinRejected","error":\#(Fixture.error(fatal: #""true""#))}"#,
        #"{"event":"joinRejected","error":\#(Fixture.error(reason: "5"))}"#,
        #"{"event":"joinRejected","error":\#(Fixture.error(reason: "null"))}"#,
        #"{"event":"joinRejected","error":\#(Fixture.error(reason: nil))}"#,
        #"{"event":"exchangeRejected","error":\#(Fixture.error(category: "exchangeToken", reason: #"["no"]"#))}"#,
        #"{"event":"exchangeRejected","error":\#(Fixture.error(category: "exchangeToken", reason: nil))}"#,
        #"{"event":"publishRejected","error":\#(Fixture.error(code: "6", category: "publish", reason: "false"))}"#,
        #"{"event":"publishRejected","error":\#(Fixture.error(code: "6", category: "join", reason: nil))}"#,
        #"{"event":"publishRejected"}"#,
        #"{"event":"participantPublished"}"#,
        #"{"event":"participantPublished","publisher":null}"#,
        #"{"event":"participantPublished","publisher":\#(Fixture.publisher(streams: "[]"))}"#,
        #"{"event":"participantUnpublished"}"#,
        #"{"event":"participantUnpublished","participant_id":5}"#,
        #"{"event":"participantUnpublished","participant_id":null}"#,
        #"{"event":"participantUnpublished","participant_id":""}"#,
        #"{"event":"exchangeAccepted"}"#,
        #"{"event":"exchangeAccepted","participant":"alice"}"#,
        #"{"event":"ejected"}"#,
        #"{"event":"ejected","reason":5}"#,
        #"{"event":"participantInterrupted","participant_id":true}"#,
        #"{"event":"participantInterrupted","participant_id":"a b"}"#,
        #"{"event":"participantReconnected","participant":1}"#,
    ]

    /// Notify frames whose connection, authn or authz metadata is missing, mistyped or disagrees.
    static let malformedNotifies: [String] = [
        #"{"type":"notify","event_type":"connection.created","connection_id":"bob","authz_metadata":{"allow_publish":true,"allow_subscribe":true}}"#,
        Fixture.notify(authn: "5"),
        Fixture.notify(authn: "null"),
        #"{"type":"notify","event_type":"connection.created","connection_id":"bob","authn_metadata":\#(Fixture.info())}"#,
        Fixture.notify(authz: "5"),
        Fixture.notify(authz: "null"),
        Fixture.notify(authz: #"{"allow_publish":"yes","allow_subscribe":true}"#),
        Fixture.notify(authz: #"{"allow_subscribe":true}"#),
        Fixture.notify(authz: #"{"allow_publish":false,"allow_subscribe":true}"#),
        Fixture.notify(connectionId: "carol", authn: Fixture.info("bob")),
        #"{"type":"notify","event_type":"connection.created","authn_metadata":\#(Fixture.info()),"authz_metadata":{"allow_publish":true,"allow_subscribe":true}}"#,
        Fixture.notify("connection.updated", authz: "[]"),
        Fixture.notify("connection.updated", connectionId: "carol", authn: Fixture.info("bob")),
        #"{"type":"notify","event_type":"connection.destroyed"}"#,
        #"{"type":"notify","event_type":"connection.destroyed","connection_id":null}"#,
        #"{"type":"notify","event_type":"connection.destroyed","connection_id":""}"#,
        #"{"type":"notify","event_type":"connection.destroyed","connection_id":"bob bob"}"#,
        #"{"type":"notify","event_type":"connection.destroyed","connection_id":"bob","channel_connections":-1}"#,
        #"{"type":"notify","event_type":"connection.destroyed","connection_id":"bob","channel_recvonly_connections":1e30}"#,
        #"{"type":"re-offer","sdp":"v=0\r\na=msid:"}"#,
        #"{"type":"re-offer","sdp":"v=0\r\na=msid:not an id"}"#,
    ]

    static var malformedAtClient: [String] {
        malformedOffers
            + malformedPublishers.map { Fixture.offer(metadata: #"{"publishers":[\#($0)]}"#) }
            + malformedPublishers.map { Fixture.published($0) }
            + malformedInfos.map { Fixture.offer(metadata: #"{"publishers":[\#(Fixture.publisher(participant: $0, streams: "[]"))]}"#) }
            + malformedInfos.map { Fixture.notify(authn: $0) }
            + malformedInfos.map { Fixture.push(#"{"event":"exchangeAccepted","participant":\#($0)}"#) }
            + malformedPushEvents.map(Fixture.push)
            + malformedNotifies
    }

    @Test("a frame with a member missing, mistyped or out of range is a protocol error at the client", arguments: malformedAtClient)
    func malformedAtClientIsRefused(frame: String) {
        if case .success(let message) = decodedAtClient(frame) {
            Issue.record("decoded as \(message.summary)")
        }
    }

    static let malformedRequests: [String] = [
        "a=x-stagesim-publish:",
        "a=x-stagesim-publish:audio,audio",
        "a=x-stagesim-publish:smell",
        "a=x-stagesim-mute:audio=yes",
        "a=x-stagesim-mute:audio",
        "a=x-stagesim-subscribe:=audioOnly",
        "a=x-stagesim-subscribe:bob==audioOnly",
        "a=x-stagesim-subscribe:not an id=audioOnly",
        "a=x-stagesim-subscribe:bob=everything",
        "a=x-stagesim-unsubscribe:",
        "a=x-stagesim-unsubscribe:a b",
        "a=x-stagesim-teleport:mars",
    ]

    @Test("a client request with a malformed line is a protocol error at the service", arguments: malformedRequests)
    func malformedRequestIsRefused(line: String) {
        let sdp = #"v=0\r\n\#(line)\r\n\#(Fixture.videoLine)\r\n\#(Fixture.layerLines.joined(separator: #"\r\n"#))"#
        if case .success(let message) = decodedAtServer(#"{"type":"x-stagesim-request","sdp":"\#(sdp)"}"#) {
            Issue.record("decoded as \(message.summary)")
        }
    }

    static let bobInfo = ParticipantInfo(
        participantId: "bob", userId: "u-bob", isLocal: false, attributes: ["seat": "7"], capabilities: Capabilities(canPublish: true, canSubscribe: false)
    )
    static let bobPublishing = PublisherSnapshot(
        info: bobInfo, streams: [StageStream(participantId: "bob", kind: .audio), StageStream(participantId: "bob", kind: .video, isMuted: true)],
        properties: PublisherProperties().created(at: 42, streamNumber: 3)
    )

    /// Every kind of message the service sends a client.
    static let serviceMessages: [WireMessage] = [
        .ping,
        .joinAccepted([bobPublishing, PublisherSnapshot(info: ParticipantInfo(participantId: "carol", userId: "", isLocal: false), streams: [])], connectionId: "alice"),
        .joinRejected(StageError(code: .tokenExpired, category: .join, isFatal: true), reason: "expired"),
        .exchangeAccepted(bobInfo),
        .exchangeRejected(StageError(code: .tokenNotAllowed, category: .exchangeToken, isFatal: false), reason: "no"),
        .participantUpdated(bobInfo),
        .ejected(reason: "token-reused"),
        .publishAccepted,
        .publishRejected(StageError(code: .stageAtCapacity, category: .publish, isFatal: false)),
        .participantJoined(bobInfo, notifyMetadata: ["seat": 7]),
        .participantJoined(bobInfo, notifyMetadata: .null),
        .participantJoined(bobInfo),
        .participantPublished(bobPublishing),
        .participantUnpublished(participantId: "bob"),
        .participantLeft(participantId: "bob"),
        .subscribeAccepted(publisherId: "bob"),
        .participantInterrupted(participantId: "bob"),
        .participantReconnected(bobInfo),
    ]

    @Test("every message the service sends decodes back to itself at the client", arguments: serviceMessages)
    func serviceMessageRoundTrips(message: WireMessage) {
        let frame = Envelope(from: .server, to: .client(0), message: message, epoch: 1, channelId: "stage-1").frame
        #expect(decodedAtClient(frame) == .success(message))
    }

    /// Well-formed frames that differ from what the service writes: unknown members (ignored),
    /// a whole number written with a fraction, Sora's null optional members, a publish refusal
    /// without a reason, push data that names no stage event.
    static let wellFormed: [String] = [
        Fixture.push(#"{"event":"participantPublished","publisher":\#(Fixture.publisher(created: "5.0")),"extra":[1]}"#),
        Fixture.published(#"{"participant":{"participant_id":"bob","user_id":"","attributes":{},"allow_publish":true,"allow_subscribe":true,"x":1},"streams":[\#(Fixture.stream())],"video_sdp":\#(Fixture.videoSDP()),"created_ns":0,"stream_no":2,"y":null}"#),
        Fixture.offer(metadata: #"{"publishers":[],"note":"hi"}"#),
        #"{"type":"offer","sdp":"v=0\r\n","connection_id":"alice","client_id":null,"metadata":{"publishers":[]}}"#,
        Fixture.push(#"{"event":"publishRejected","error":{"code":6,"category":"publish","fatal":false}}"#),
        Fixture.push(#"{"event":"publishRejected","error":{"code":6,"category":"publish","fatal":false,"reason":"full"}}"#),
        #"{"type":"notify","event_type":"connection.destroyed","connection_id":"bob","channel_connections":3,"extra":{}}"#,
        Fixture.push(#"{"event":5,"size":"large"}"#),
        Fixture.push(#"{"event":"somethingElse","error":1}"#),
    ]

    @Test("a well-formed frame that is not byte for byte the service's still decodes", arguments: wellFormed)
    func wellFormedDecodes(frame: String) {
        if case .failure(let error) = decodedAtClient(frame) { Issue.record("\(error)") }
    }
}
