/// One Sora signaling message (SIG-1): one case per `type`, each with its payload.
/// `frame` is the canonical JSON text and `decode(frame:)` reads it back, so
/// `SignalingMessage.decode(frame: m.frame) == .success(m)` for every message.
public enum SignalingMessage: Hashable, Sendable {
    case connect(SignalingConnect)
    case offer(SignalingOffer)
    case answer(SignalingAnswer)
    case update(SignalingUpdate)
    case reOffer(SignalingReOffer)
    case reAnswer(SignalingReAnswer)
    case candidate(SignalingCandidate)
    case notify(SignalingNotify)
    case ping(SignalingPing)
    case pong(SignalingPong)
    case disconnect(SignalingDisconnect)
    case push(SignalingPush)
    case request(SignalingRequest)

    /// The message's `type`.
    public var type: SignalingMessageType {
        switch self {
        case .connect: .connect
        case .offer: .offer
        case .answer: .answer
        case .update: .update
        case .reOffer: .reOffer
        case .reAnswer: .reAnswer
        case .candidate: .candidate
        case .notify: .notify
        case .ping: .ping
        case .pong: .pong
        case .disconnect: .disconnect
        case .push: .push
        case .request: .request
        }
    }

    /// Who may send this message (SIG-2).
    public var direction: SignalingDirection { type.direction }
}
