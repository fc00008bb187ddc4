import Signaling
import StageCore

/// How the stage's messages travel as Sora signaling (SIG-1, SIG-5): a join is `connect`, with
/// the app's `metadata` and `signaling_notify_metadata` exactly as the app set them (SIG-2,
/// SIG-3) and the token on an `a=x-stagesim-token:` line of its `sdp`; a leave is `disconnect`,
/// keepalive is `ping`/`pong`, and the client's media and token changes are StageSim's own
/// `x-stagesim-request`s *(ext)* whose SDP carries one `a=x-stagesim-...` line. The service
/// answers a join with an `offer` whose `connection_id` is the participant's, the id `notify`
/// uses for it, listing the publishers in its metadata, and the client answers it with
/// `answer`; it adds a subscribed publisher's media with a `re-offer` (`a=msid:<publisher>`),
/// which the client answers with `re-answer`. The service announces connections with `notify`
/// (connection.created / updated / destroyed, carrying the participant's metadata), and sends
/// every other stage event as `push` data. A `push` that is not a stage event and a `notify` of an event type the stage does not
/// use are application data (SIG-2, SIG-5): delivered to the SDK's handlers, never an error.
public enum WireFrames {
    /// The frame for `message` on stage `channelId`.
    public static func signaling(_ message: WireMessage, channelId: String) -> SignalingMessage {
        switch message {
        case .join(_, let connect):
            return .connect(SignalingConnect(
                role: .sendrecv, channelId: channelId, metadata: connect.metadata, notifyMetadata: connect.notifyMetadata,
                sdp: "v=0\r\n" + SessionLine.line(for: message)
            ))
        case .leave: return .disconnect(SignalingDisconnect(reason: "leave"))
        case .answer: return .answer(SignalingAnswer(sdp: "v=0\r\n"))
        case .reAnswer: return .reAnswer(SignalingReAnswer(sdp: "v=0\r\n"))
        case .subscribeAccepted(let publisherId): return .reOffer(SignalingReOffer(sdp: "v=0\r\n" + SessionLine.mediaStream(of: publisherId)))
        case .pong: return .pong(SignalingPong())
        case .ping: return .ping(SignalingPing())
        case .publish, .unpublish, .mute, .subscribe, .unsubscribe, .exchangeToken:
            return .request(SignalingRequest(sdp: "v=0\r\n" + SessionLine.line(for: message)))
        case .joinAccepted(let snapshots, let connectionId):
            return .offer(SignalingOffer(sdp: "v=0\r\n", connectionId: connectionId, metadata: .object(["publishers": .array(snapshots.map(WireJSON.snapshot))])))
        case .participantJoined(let info, let notifyMetadata): return notify(.connectionCreated, info, notifyMetadata)
        case .participantUpdated(let info): return notify(.connectionUpdated, info, nil)
        case .participantLeft(let id):
            return .notify(SignalingNotify(eventType: .connectionDestroyed, connectionId: id))
        case .applicationData(let signaling): return signaling
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
            guard let token = connect.sdp.flatMap(SessionLine.token(inSDP:)) else { throw FrameError("connect.sdp has no a=x-stagesim-token: line") }
            return .join(token: token, metadata: ConnectMetadata(metadata: connect.metadata, notifyMetadata: connect.notifyMetadata))
        case .disconnect: return .leave
        case .pong: return .pong
        case .ping: return .ping
        case .request(let request): return try SessionLine.message(fromSDP: request.sdp)
        case .reAnswer: return .reAnswer
        case .reOffer(let reOffer): return .subscribeAccepted(publisherId: try SessionLine.mediaStreamOwner(inSDP: reOffer.sdp))
        case .offer(let offer): return try decode(offer)
        case .notify(let notify): return try decode(notify)
        case .push(let push):
            // A push with no data (SIG-2: data is `Any?`) names no stage event: the application's.
            guard let data = push.dataValue else { return .applicationData(signaling) }
            return try PushEvent.message(from: data) ?? .applicationData(signaling)
        case .answer: return .answer
        case .update, .candidate:
            throw FrameError("\(signaling.type.rawValue) carries no stage message")
        }
    }

    /// An offer names the receiving participant (`connection_id`) and lists every other
    /// participant once, in `metadata.publishers`.
    private static func decode(_ offer: SignalingOffer) throws(FrameError) -> WireMessage {
        let connectionId = try WireReader.participantId(offer.connectionId, "offer.connection_id")
        let metadata = try WireReader(offer.metadata, "offer.metadata")
        var snapshots: [PublisherSnapshot] = []
        for (position, item) in try metadata.array("publishers").enumerated() {
            let snapshot = try WireJSON.snapshot(from: WireReader(item, "offer.metadata.publishers[\(position)]"))
            let id = snapshot.info.participantId
            guard id != connectionId, !snapshots.contains(where: { $0.info.participantId == id }) else {
                throw FrameError("offer.metadata.publishers[\(position)] names \(id) again: an offer names its own connection and every other participant once")
            }
            snapshots.append(snapshot)
        }
        return .joinAccepted(snapshots, connectionId: connectionId)
    }

    private static func decode(_ notify: SignalingNotify) throws(FrameError) -> WireMessage {
        switch notify.eventType {
        case .connectionCreated: return .participantJoined(try announced(notify), notifyMetadata: notify.metadataValue)
        case .connectionUpdated: return .participantUpdated(try announced(notify))
        case .connectionDestroyed: return .participantLeft(participantId: try connectionId(of: notify))
        case .other: return .applicationData(.notify(notify))
        }
    }

    /// The participant a connection.created or .updated announces: `authn_metadata` is its
    /// info, `authz_metadata` grants exactly the capabilities that info has, and
    /// `connection_id` names it (SIG-5).
    private static func announced(_ notify: SignalingNotify) throws(FrameError) -> ParticipantInfo {
        let info = try WireJSON.info(from: WireReader(notify.authnMetadataValue, "notify.authn_metadata"))
        let authorization = try WireReader(notify.authzMetadataValue, "notify.authz_metadata")
        let granted = Capabilities(canPublish: try authorization.bool("allow_publish"), canSubscribe: try authorization.bool("allow_subscribe"))
        guard granted == info.capabilities else { throw FrameError("notify.authz_metadata grants other capabilities than notify.authn_metadata holds") }
        guard try connectionId(of: notify) == info.participantId else { throw FrameError("notify.connection_id is not notify.authn_metadata.participant_id") }
        return info
    }

    private static func connectionId(of notify: SignalingNotify) throws(FrameError) -> String {
        guard let id = notify.connectionId else { throw FrameError("notify.connection_id is missing") }
        return try WireReader.participantId(id, "notify.connection_id")
    }
}

extension Client.Output {
    /// SIG-1: a client answers the service's `offer` (an accepted join) with an `answer`, and
    /// its `re-offer` (an accepted subscribe) with a `re-answer`, before anything else it sends
    /// in response.
    func answering(with answer: WireMessage) -> Client.Output {
        var output = self
        output.messages.insert(answer, at: 0)
        return output
    }
}
