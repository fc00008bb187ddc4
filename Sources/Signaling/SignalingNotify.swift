/// `type: notify`, a server event about the channel (SIG-5): `event_type` plus the
/// connection it is about. `metadata`, `authn_metadata` and `authz_metadata` carry arbitrary
/// JSON and are receive-only (SIG-2): held here as typed values (`metadataValue`, ...); the
/// SDK's `Any?` properties of the Sora page (`metadata`, `authnMetadata`, `authzMetadata`)
/// are in StageSDK, which has Foundation.
/// The channel connection counts are Sora's *(ext)*, each within `connectionCountRange`.
public struct SignalingNotify: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.notify

    /// `event_type`
    public var eventType: NotifyEventType
    /// `connection_id`
    public var connectionId: String?
    /// `client_id`
    public var clientId: String?
    public var role: SignalingRole?
    /// `metadata`
    public var metadataValue: JSONValue?
    /// `authn_metadata`
    public var authnMetadataValue: JSONValue?
    /// `authz_metadata`
    public var authzMetadataValue: JSONValue?
    /// `channel_connections` *(ext)*
    public var channelConnections: Int?
    /// `channel_sendrecv_connections` *(ext)*
    public var channelSendrecvConnections: Int?
    /// `channel_sendonly_connections` *(ext)*
    public var channelSendonlyConnections: Int?
    /// `channel_recvonly_connections` *(ext)*
    public var channelRecvonlyConnections: Int?

    /// The range every channel connection count must lie in (SIG-8): a count is never
    /// negative, and no channel holds a million connections.
    public static let connectionCountRange: ClosedRange<Int> = 0...1_000_000

    public init(
        eventType: NotifyEventType, connectionId: String? = nil, clientId: String? = nil, role: SignalingRole? = nil,
        metadata: JSONValue? = nil, authnMetadata: JSONValue? = nil, authzMetadata: JSONValue? = nil,
        channelConnections: Int? = nil, channelSendrecvConnections: Int? = nil,
        channelSendonlyConnections: Int? = nil, channelRecvonlyConnections: Int? = nil
    ) {
        self.eventType = eventType
        self.connectionId = connectionId
        self.clientId = clientId
        self.role = role
        metadataValue = metadata
        authnMetadataValue = authnMetadata
        authzMetadataValue = authzMetadata
        self.channelConnections = channelConnections
        self.channelSendrecvConnections = channelSendrecvConnections
        self.channelSendonlyConnections = channelSendonlyConnections
        self.channelRecvonlyConnections = channelRecvonlyConnections
    }

    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) {
        eventType = NotifyEventType(text: try fields.string("event_type"))
        connectionId = try fields.optionalString("connection_id")
        clientId = try fields.optionalString("client_id")
        role = try fields.optionalString("role").map(SignalingRole.init(text:))
        metadataValue = fields.optionalValue("metadata")
        authnMetadataValue = fields.optionalValue("authn_metadata")
        authzMetadataValue = fields.optionalValue("authz_metadata")
        channelConnections = try fields.optionalCount("channel_connections", in: Self.connectionCountRange)
        channelSendrecvConnections = try fields.optionalCount("channel_sendrecv_connections", in: Self.connectionCountRange)
        channelSendonlyConnections = try fields.optionalCount("channel_sendonly_connections", in: Self.connectionCountRange)
        channelRecvonlyConnections = try fields.optionalCount("channel_recvonly_connections", in: Self.connectionCountRange)
    }

    func write(into fields: inout SignalingFieldWriter) {
        fields.set("event_type", eventType.text)
        fields.set("connection_id", connectionId)
        fields.set("client_id", clientId)
        fields.set("role", role?.text)
        fields.set("metadata", metadataValue)
        fields.set("authn_metadata", authnMetadataValue)
        fields.set("authz_metadata", authzMetadataValue)
        fields.set("channel_connections", channelConnections)
        fields.set("channel_sendrecv_connections", channelSendrecvConnections)
        fields.set("channel_sendonly_connections", channelSendonlyConnections)
        fields.set("channel_recvonly_connections", channelRecvonlyConnections)
    }
}
