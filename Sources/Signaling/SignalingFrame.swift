/// One WebSocket message on the signaling connection (SIG-1, SIG-7): Sora sends text frames
/// only, so a binary frame is a protocol error, never a crash.
public enum SignalingFrame: Hashable, Sendable {
    case text(String)
    case binary([UInt8])
}
