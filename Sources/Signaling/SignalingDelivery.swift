/// What an endpoint hands its two handler levels for one received frame (SIG-7): the raw
/// frame for `onReceive`, and either the decoded message for `onReceiveSignaling` or the
/// protocol error that was logged instead (SIG-8).
public struct SignalingDelivery: Hashable, Sendable {
    /// The frame exactly as received (the raw `onReceive` level).
    public let raw: SignalingFrame
    /// The decoded message or the protocol error.
    public let result: Result<SignalingMessage, SignalingProtocolError>

    public init(raw: SignalingFrame, result: Result<SignalingMessage, SignalingProtocolError>) {
        self.raw = raw
        self.result = result
    }

    /// The raw text of a text frame; `nil` for a binary frame.
    public var rawText: String? {
        if case .text(let text) = raw { return text }
        return nil
    }

    /// The message for `onReceiveSignaling`, when the frame decoded.
    public var message: SignalingMessage? {
        if case .success(let message) = result { return message }
        return nil
    }

    /// The protocol error, when the frame did not decode.
    public var error: SignalingProtocolError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
