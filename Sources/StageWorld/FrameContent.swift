import Signaling
import Simulation
import StageCore

/// One signaling frame as the network carries it: its JSON text, and the stage message it
/// decodes to at its receiver or why it decodes to none (SIG-1, SIG-8). Both are fixed when
/// the frame is made, so neither a delivery nor the model checker's state encoding decodes
/// text again; the content is immutable and shared by every copy of the frame (a retransmitted,
/// duplicated or held one). Equal when the text and the receiving side are equal.
public final class FrameContent: Hashable, Sendable {
    public let text: String
    public let decoded: Result<WireMessage, SignalingFrameError>
    /// The decoded message's exploration encoding (`WireMessage.encode`) without a renaming,
    /// made once with the frame so that the model checker does not encode a frame in flight
    /// again for every state holding it; nil for a frame that decodes to none or carries a
    /// token (whose encoding depends on the run's key ring).
    let messageEncoding: [UInt8]?
    private let atServer: Bool

    /// A frame the model sends: the message encoded, then decoded as its receiver would (a
    /// message need not survive the trip whole: a request does not carry its sender's id).
    /// Both steps are pure functions of their input; `FrameTable` makes each frame once per thread.
    init(encoding message: WireMessage, channelId: String, atServer: Bool) {
        text = WireFrames.signaling(message, channelId: channelId).frame
        decoded = Self.decode(text, atServer: atServer)
        messageEncoding = Self.encoding(of: decoded)
        self.atServer = atServer
    }

    /// A frame given as text (an injected one, SIG-8), decoded as its receiver would.
    init(text: String, atServer: Bool) {
        self.text = text
        decoded = Self.decode(text, atServer: atServer)
        messageEncoding = Self.encoding(of: decoded)
        self.atServer = atServer
    }

    private static func encoding(of decoded: Result<WireMessage, SignalingFrameError>) -> [UInt8]? {
        guard case .success(let message) = decoded, !message.carriesToken else { return nil }
        var writer = CanonicalWriter()
        message.encode(to: &writer, keyRing: TokenKeyRing())
        return writer.bytes
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
