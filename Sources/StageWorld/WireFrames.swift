import Signaling
import StageCore

/// How the stage's messages travel as Sora signaling (SIG-1, SIG-5): a join is `connect` with
/// the token in its metadata, a leave is `disconnect`, keepalive is `ping`/`pong`, and the
/// client's media and token changes are `re-answer`s whose SDP carries one `a=x-stagesim-...`
/// line. The service answers a join with an `offer` listing the publishers in its metadata,
/// announces connections with `notify` (connection.created / updated / destroyed, carrying the
/// participant's metadata), and sends every other stage event as `push` data.
public enum WireFrames {
    public static func signaling(_ message: WireMessage, channelId: String) -> SignalingMessage {
        switch message {
        case .join(let token, let connect):
            var metadata: JSONObject = ["token": .string(token)]
            if let app = connect.metadata { metadata["app"] = app }
            return .connect(SignalingConnect(role: .sendrecv, channelId: channelId, metadata: .object(metadata), notifyMetadata: connect.notifyMetadata))
        case .leave: return .disconnect(SignalingDisconnect(reason: "leave"))
        case .pong: return .pong(SignalingPong())
        case .ping: return .ping(SignalingPing())
        case .publish, .unpublish, .mute, .subscribe, .unsubscribe, .exchangeToken:
            return .reAnswer(SignalingReAnswer(sdp: "v=0\r\n" + SessionLine.line(for: message)))
        case .joinAccepted(let snapshots):
            return .offer(SignalingOffer(sdp: "v=0\r\n", connectionId: channelId, metadata: .object(["publishers": .array(snapshots.map(WireJSON.snapshot))])))
        case .participantJoined(let info, let notifyMetadata): return notify(.connectionCreated, info, notifyMetadata)
        case .participantUpdated(let info): return notify(.connectionUpdated, info, nil)
        case .participantLeft(let id):
            return .notify(SignalingNotify(eventType: .connectionDestroyed, connectionId: id))
        default:
            return .push(SignalingPush(data: PushEvent.data(for: message)))
        }
    }

    /// `metadata` is what the participant asked to be told to everyone (SIG-2); the service's
    /// own word on who it is, from its verified token, is `authn_metadata` (SIG-5).
    private static func notify(_ type: NotifyEventType, _ info: ParticipantInfo, _ notifyMetadata: JSONValue?) -> SignalingMessage {
        .notify(SignalingNotify(
            eventType: type, connectionId: info.participantId, role: .sendrecv, metadata: notifyMetadata,
            authnMetadata: WireJSON.info(info),
            authzMetadata: .object(["allow_publish": .bool(info.capabilities.canPublish), "allow_subscribe": .bool(info.capabilities.canSubscribe)])
        ))
    }

    /// The stage message a decoded signaling message carries, or why it carries none.
    static func message(_ signaling: SignalingMessage) -> Result<WireMessage, FrameError> {
        do throws(FrameError) {
            return .success(try decode(signaling))
        } catch {
            return .failure(error)
        }
    }

    private static func decode(_ signaling: SignalingMessage) throws(FrameError) -> WireMessage {
        switch signaling {
        case .connect(let connect):
            guard let token = connect.metadata?["token"]?.stringValue else { throw FrameError("connect.metadata.token is not a string") }
            return .join(token: token, metadata: ConnectMetadata(metadata: connect.metadata?["app"], notifyMetadata: connect.notifyMetadata))
        case .disconnect: return .leave
        case .pong: return .pong
        case .ping: return .ping
        case .reAnswer(let reAnswer): return try SessionLine.message(fromSDP: reAnswer.sdp)
        case .offer(let offer):
            var snapshots: [PublisherSnapshot] = []
            for item in offer.metadata?["publishers"]?.arrayValue ?? [] { snapshots.append(try WireJSON.snapshot(from: item)) }
            return .joinAccepted(snapshots)
        case .notify(let notify): return try decode(notify)
        case .push(let push): return try PushEvent.message(from: push.data)
        case .answer, .update, .reOffer, .candidate:
            throw FrameError("\(signaling.type.rawValue) carries no stage message")
        }
    }

    private static func decode(_ notify: SignalingNotify) throws(FrameError) -> WireMessage {
        switch notify.eventType {
        case .connectionCreated: return .participantJoined(try WireJSON.info(from: notify.authnMetadata), notifyMetadata: notify.metadata)
        case .connectionUpdated: return .participantUpdated(try WireJSON.info(from: notify.authnMetadata))
        case .connectionDestroyed:
            guard let id = notify.connectionId else { throw FrameError("notify connection.destroyed has no connection_id") }
            return .participantLeft(participantId: id)
        case .other(let text): throw FrameError("notify event_type \(text) carries no stage message")
        }
    }
}
