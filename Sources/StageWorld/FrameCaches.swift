import StageCore

/// Frames already encoded and decoded in this process, consulted once when a frame is made
/// (`FrameContent`): what a message encodes to, and what a frame decodes to at a given side,
/// never change, and broadcasts and keepalive frames repeat (SIG-1).
enum FrameCaches {
    struct Encoding: Hashable, Sendable {
        var message: WireMessage
        var channelId: String
    }

    struct Decoding: Hashable, Sendable {
        var frame: String
        var atServer: Bool
    }

    static let encoded = MemoCache<Encoding, String>(capacity: 20_000)
    static let decoded = MemoCache<Decoding, Result<WireMessage, SignalingFrameError>>(capacity: 20_000)
}
