/// `type: push`, an application message pushed by the server (SIG-1); `data` is arbitrary
/// JSON, receive-only (SIG-2), and required (it may be `null`).
public struct SignalingPush: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.push
    public var data: JSONValue
    public init(data: JSONValue) { self.data = data }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { data = try fields.value("data") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("data", data) }
}
