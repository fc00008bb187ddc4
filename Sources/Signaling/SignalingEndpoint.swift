/// The receiving end of a signaling connection as a value (SIG-7, SIG-8).
///
/// Every frame yields a `SignalingDelivery` for both handler levels. A frame that is not
/// JSON, not an object, of unknown type, missing a field, binary, or not allowed to arrive at
/// this side (SIG-2) is a protocol error: it is appended to `protocolLog` and changes nothing
/// else, so the connection keeps its state. Decoded messages are counted by type.
public struct SignalingEndpoint: Hashable, Sendable {
    /// The side this endpoint receives at; the SDK is the `.client`.
    public let side: SignalingSide
    /// One line per protocol error, oldest first.
    public private(set) var protocolLog: [String] = []
    /// Messages delivered so far, by type.
    public private(set) var receivedCounts: [SignalingMessageType: Int] = [:]

    public init(side: SignalingSide = .client) { self.side = side }

    /// Messages of `type` delivered so far.
    public func receivedCount(of type: SignalingMessageType) -> Int { receivedCounts[type, default: 0] }

    /// Messages delivered so far, all types.
    public var receivedTotal: Int { receivedCounts.values.reduce(0, +) }

    /// Receives one frame: decodes it, counts it, or logs why it could not be delivered.
    public mutating func receive(_ frame: SignalingFrame) -> SignalingDelivery {
        let result: Result<SignalingMessage, SignalingProtocolError>
        switch frame {
        case .binary(let bytes):
            result = .failure(.binaryFrame(byteCount: bytes.count))
        case .text(let text):
            result = SignalingMessage.decode(frame: text, arrivingAt: side)
        }
        switch result {
        case .success(let message): receivedCounts[message.type, default: 0] += 1
        case .failure(let error): protocolLog.append("protocol error: \(error)")
        }
        return SignalingDelivery(raw: frame, result: result)
    }
}
