/// `type: answer`, the client's SDP answer to the offer (SIG-1).
public struct SignalingAnswer: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.answer
    public var sdp: String
    public init(sdp: String) { self.sdp = sdp }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { sdp = try fields.string("sdp") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("sdp", sdp) }
}

/// `type: update`, a renegotiation SDP in either direction (SIG-1); deprecated in favour of
/// re-offer/re-answer *(ext)*.
public struct SignalingUpdate: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.update
    public var sdp: String
    public init(sdp: String) { self.sdp = sdp }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { sdp = try fields.string("sdp") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("sdp", sdp) }
}

/// `type: re-offer`, the server's renegotiation offer *(ext)* (SIG-1).
public struct SignalingReOffer: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.reOffer
    public var sdp: String
    public init(sdp: String) { self.sdp = sdp }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { sdp = try fields.string("sdp") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("sdp", sdp) }
}

/// `type: re-answer`, the client's answer to a re-offer *(ext)* (SIG-1).
public struct SignalingReAnswer: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.reAnswer
    public var sdp: String
    public init(sdp: String) { self.sdp = sdp }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { sdp = try fields.string("sdp") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("sdp", sdp) }
}

/// `type: x-stagesim-request`, a change the client asks of the service *(ext)*: its `sdp`
/// describes the change as `a=x-stagesim-...` lines (SIG-1).
public struct SignalingRequest: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.request
    public var sdp: String
    public init(sdp: String) { self.sdp = sdp }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { sdp = try fields.string("sdp") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("sdp", sdp) }
}

/// `type: candidate`, one ICE candidate line sent by the client (SIG-1).
public struct SignalingCandidate: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.candidate
    public var candidate: String
    public init(candidate: String) { self.candidate = candidate }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { candidate = try fields.string("candidate") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("candidate", candidate) }
}
