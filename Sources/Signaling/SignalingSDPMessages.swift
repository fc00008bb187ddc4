/// The messages whose one member is an SDP text (SIG-1): `answer`, `update`, `re-offer`,
/// `re-answer`, and StageSim's `x-stagesim-request` *(ext)*. One type serves them all; the
/// `Kind` says which message it is.
public struct SignalingSDPMessage<Kind: SignalingSDPKind>: Hashable, Sendable, SignalingPayload {
    static var messageType: SignalingMessageType { Kind.messageType }
    public var sdp: String
    public init(sdp: String) { self.sdp = sdp }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { sdp = try fields.string("sdp") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("sdp", sdp) }
}

/// Which SDP-carrying message a `SignalingSDPMessage` is.
public protocol SignalingSDPKind: Sendable {
    static var messageType: SignalingMessageType { get }
}

/// `type: answer`, the client's SDP answer to the offer (SIG-1).
public typealias SignalingAnswer = SignalingSDPMessage<SignalingSDPKinds.Answer>
/// `type: update`, a renegotiation SDP in either direction (SIG-1); deprecated in favour of
/// re-offer/re-answer *(ext)*.
public typealias SignalingUpdate = SignalingSDPMessage<SignalingSDPKinds.Update>
/// `type: re-offer`, the server's renegotiation offer *(ext)* (SIG-1).
public typealias SignalingReOffer = SignalingSDPMessage<SignalingSDPKinds.ReOffer>
/// `type: re-answer`, the client's answer to a re-offer *(ext)* (SIG-1).
public typealias SignalingReAnswer = SignalingSDPMessage<SignalingSDPKinds.ReAnswer>
/// `type: x-stagesim-request`, a change the client asks of the service *(ext)*: its `sdp`
/// describes the change as `a=x-stagesim-...` lines (SIG-1).
public typealias SignalingRequest = SignalingSDPMessage<SignalingSDPKinds.Request>

/// The kinds of SDP-carrying message.
public enum SignalingSDPKinds {
    public enum Answer: SignalingSDPKind { public static let messageType = SignalingMessageType.answer }
    public enum Update: SignalingSDPKind { public static let messageType = SignalingMessageType.update }
    public enum ReOffer: SignalingSDPKind { public static let messageType = SignalingMessageType.reOffer }
    public enum ReAnswer: SignalingSDPKind { public static let messageType = SignalingMessageType.reAnswer }
    public enum Request: SignalingSDPKind { public static let messageType = SignalingMessageType.request }
}

/// `type: candidate`, one ICE candidate line sent by the client (SIG-1).
public struct SignalingCandidate: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.candidate
    public var candidate: String
    public init(candidate: String) { self.candidate = candidate }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { candidate = try fields.string("candidate") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("candidate", candidate) }
}
