/// `type: push`, an application message pushed by the server (SIG-1); `data` is arbitrary
/// JSON, receive-only (SIG-2). The Sora page types every arbitrary JSON value as `Any?`
/// ("任意の JSON 値の型は Any? です"), so `data` may be absent (nil, a push with no data) or
/// `null` (`.null`, NSNull in the seed's SDK); neither is a protocol error. Held as a typed
/// value (`dataValue`); the SDK's `Any?` property `data` is in StageSDK, which has Foundation.
public struct SignalingPush: Hashable, Sendable, SignalingPayload {
    static let messageType = SignalingMessageType.push
    /// `data`
    public var dataValue: JSONValue?
    public init(data: JSONValue?) { dataValue = data }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError) { dataValue = fields.optionalValue("data") }
    func write(into fields: inout SignalingFieldWriter) { fields.set("data", dataValue) }
}
