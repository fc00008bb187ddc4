/// The `type` member of a Sora signaling message (SIG-1), spelled as on the wire.
/// `update` is the older name for the re-offer/re-answer exchange *(ext)*.
public enum SignalingMessageType: String, Hashable, Sendable, CaseIterable {
    case connect
    case offer
    case answer
    case update
    case reOffer = "re-offer"
    case reAnswer = "re-answer"
    case candidate
    case notify
    case ping
    case pong
    case disconnect
    case push
    /// StageSim's own client request *(ext)*: Sora has no message a client sends unprompted to
    /// change its media or token (re-answer only ever answers a re-offer), so the stage's
    /// publish, unpublish, mute, subscribe, unsubscribe and token exchange ride on this type.
    case request = "x-stagesim-request"

    /// Who may send a message of this type (SIG-2): the client sends connect, answer,
    /// re-answer, candidate, pong, disconnect and request; the server sends offer, re-offer, notify,
    /// ping and push; update goes both ways (server offer, client answer).
    public var direction: SignalingDirection {
        switch self {
        case .connect, .answer, .reAnswer, .candidate, .pong, .disconnect, .request: .clientToServer
        case .offer, .reOffer, .notify, .ping, .push: .serverToClient
        case .update: .both
        }
    }
}
