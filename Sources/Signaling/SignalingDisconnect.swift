/// `type: disconnect`, the client leaving the channel (SIG-1), with an optional reason.
public struct SignalingDisconnect: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.disconnect
    public var reason: String?
    public init(reason: String? = nil) { self.reason = reason }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { reason = try fields.optionalString("reason") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("reason", reason) }
}
