/// `type: connect`, the client's first message (SIG-1). `metadata` and `notifyMetadata`
/// (`signaling_notify_metadata`) carry arbitrary JSON and are send-only (SIG-2); build them
/// from host values with `JSONValue(encoding:)` (SIG-3). The frame writes `metadata` right
/// after `type`, as in the seed's examples: `{"type":"connect","metadata":"contents",...}`.
/// `sdp` is the client's offer *(ext)*, which carries what the connection needs besides the
/// app's values, so `metadata` stays exactly what the app set.
public struct SignalingConnect: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.connect

    public var role: SignalingRole
    /// `channel_id`
    public var channelId: String
    /// `client_id`
    public var clientId: String?
    public var metadata: JSONValue?
    /// `signaling_notify_metadata`
    public var notifyMetadata: JSONValue?
    /// `multistream` *(ext)*
    public var multistream: Bool?
    /// `simulcast` *(ext)*
    public var simulcast: Bool?
    /// `sdp`, the client's offer *(ext)*
    public var sdp: String?

    public init(
        role: SignalingRole, channelId: String, clientId: String? = nil, metadata: JSONValue? = nil,
        notifyMetadata: JSONValue? = nil, multistream: Bool? = nil, simulcast: Bool? = nil, sdp: String? = nil
    ) {
        self.role = role
        self.channelId = channelId
        self.clientId = clientId
        self.metadata = metadata
        self.notifyMetadata = notifyMetadata
        self.multistream = multistream
        self.simulcast = simulcast
        self.sdp = sdp
    }

    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) {
        role = SignalingRole(text: try fields.string("role"))
        channelId = try fields.string("channel_id")
        clientId = try fields.optionalString("client_id")
        metadata = fields.optionalValue("metadata")
        notifyMetadata = fields.optionalValue("signaling_notify_metadata")
        multistream = try fields.optionalBool("multistream")
        simulcast = try fields.optionalBool("simulcast")
        sdp = try fields.optionalString("sdp")
    }

    func write(into fields: inout SignalingFieldWriter) {
        fields.set("metadata", metadata)
        fields.set("signaling_notify_metadata", notifyMetadata)
        fields.set("role", role.text)
        fields.set("channel_id", channelId)
        fields.set("client_id", clientId)
        fields.set("multistream", multistream)
        fields.set("simulcast", simulcast)
        fields.set("sdp", sdp)
    }
}
