/// `type: ping`, the server's keepalive probe (SIG-6); `stats: true` asks for statistics
/// in the pong.
public struct SignalingPing: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.ping
    public var stats: Bool?
    public init(stats: Bool? = nil) { self.stats = stats }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { stats = try fields.optionalBool("stats") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("stats", stats) }
}

/// `type: pong`, the client's keepalive reply (SIG-6), with statistics when the ping asked.
public struct SignalingPong: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.pong
    public var stats: JSONValue?
    public init(stats: JSONValue? = nil) { self.stats = stats }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { stats = fields.optionalValue("stats") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("stats", stats) }
}
