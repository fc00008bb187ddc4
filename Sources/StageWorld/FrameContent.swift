import Signaling

/// One signaling frame as the network carries it: its JSON text, and the stage message it
/// decodes to at its receiver or why it decodes to none (SIG-1, SIG-8). Both are fixed when
/// the frame is made, so neither a delivery nor the model checker's state encoding decodes
/// text again; the content is immutable and shared by every copy of the frame (a retransmitted,
/// duplicated or held one). Equal when the text and the receiving side are equal.
public final class FrameContent: Hashable, Sendable {
    public let text: String
    public let decoded: Result<WireMessage, SignalingFrameError>
    private let atServer: Bool

    /// A frame the model sends: the message encoded, then decoded as its receiver would (a
    /// message need not survive the trip whole: a request does not carry its sender's id).
    /// Both steps are pure functions of their input; `FrameTable` makes each frame once per thread.
    init(encoding message: WireMessage, channelId: String, atServer: Bool) {
        text = WireFrames.signaling(message, channelId: channelId).frame
        decoded = Self.decode(text, atServer: atServer)
        self.atServer = atServer
    }

    /// A frame given as text (an injected one, SIG-8), decoded as its receiver would.
    init(text: String, atServer: Bool) {
        self.text = text
        decoded = Self.decode(text, atServer: atServer)
        self.atServer = atServer
    }

    private static func decode(_ text: String, atServer: Bool) -> Result<WireMessage, SignalingFrameError> {
        switch SignalingMessage.decode(frame: text, arrivingAt: atServer ? .server : .client) {
        case .failure(let error): return .failure(SignalingFrameError(description: error.description))
        case .success(let signaling): return WireFrames.message(signaling).mapError { SignalingFrameError(description: $0.message) }
        }
    }

    public static func == (left: FrameContent, right: FrameContent) -> Bool {
        left === right || (left.atServer == right.atServer && left.text == right.text)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(atServer)
    }
}
