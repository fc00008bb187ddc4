/// `type: offer`, the server's SDP offer after connect (SIG-1), with the connection id the
/// server assigned and the metadata the server attaches.
public struct SignalingOffer: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.offer

    public var sdp: String
    /// `connection_id`
    public var connectionId: String
    /// `client_id`
    public var clientId: String?
    public var metadata: JSONValue?

    public init(sdp: String, connectionId: String, clientId: String? = nil, metadata: JSONValue? = nil) {
        self.sdp = sdp
        self.connectionId = connectionId
        self.clientId = clientId
        self.metadata = metadata
    }

    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) {
        sdp = try fields.string("sdp")
        connectionId = try fields.string("connection_id")
        clientId = try fields.optionalString("client_id")
        metadata = fields.optionalValue("metadata")
    }

    func write(into fields: inout SignalingFieldWriter) {
        fields.set("sdp", sdp)
        fields.set("connection_id", connectionId)
        fields.set("client_id", clientId)
        fields.set("metadata", metadata)
    }
}
