/// What every message payload does: read itself from a message object and write itself back
/// with Sora's snake_case member names (SIG-1).
protocol SignalingPayload: Hashable, Sendable {
    static var messageType: SignalingMessageType { get }
    init(reading fields: SignalingFieldReader) throws(SignalingProtocolError)
    func write(into fields: inout SignalingFieldWriter)
}
