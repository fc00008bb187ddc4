import Signaling

/// A stage's signaling connection as the Sora SDK names it (SIG-7): the Sora page sets its two
/// handler levels as `mediaChannel.handlers.onReceiveSignaling = { signaling in ... }` (every
/// decoded message, `switch signaling { case .notify(let notify): ... case .push(let push): ... }`)
/// and `mediaChannel.webSocketChannel.handlers.onReceive = { message in ... }` (every WebSocket
/// message, `case .text(let text)`; "シグナリングでバイナリデータは来ない": binary never comes).
/// Each `Stage` has one (`stage.mediaChannel`); the handlers run as `Stage.onReceive` does, for
/// every frame that reaches the stage, in trace order.
public final class MediaChannel {
    /// The decoded level, the Sora SDK's `MediaChannelHandlers`.
    public let handlers = MediaChannelHandlers()
    /// The raw level, the Sora SDK's `WebSocketChannel`.
    public let webSocketChannel = WebSocketChannel()

    init() {}
}

/// The Sora SDK's `MediaChannelHandlers` (SIG-7): the handler for decoded signaling messages.
public final class MediaChannelHandlers {
    /// Every signaling message that reaches the stage and decodes (`Stage.onReceiveSignaling` is
    /// this same handler).
    public var onReceiveSignaling: ((SignalingMessage) -> Void)?

    init() {}
}

/// The Sora SDK's `WebSocketChannel` (SIG-7): the stage's signaling WebSocket.
public final class WebSocketChannel {
    /// The raw level's handlers.
    public let handlers = WebSocketChannelHandlers()

    init() {}
}

/// The Sora SDK's `WebSocketChannelHandlers` (SIG-7): the handler for raw WebSocket messages.
public final class WebSocketChannelHandlers {
    /// Every WebSocket message that reaches the stage, as received: `.text` with the signaling
    /// JSON, including frames that turn out to be protocol errors.
    public var onReceive: ((WebSocketMessage) -> Void)?

    init() {}
}

/// The Sora SDK's `WebSocketMessage`: a text or binary WebSocket message (SIG-1: signaling
/// frames are text; binary never comes).
public typealias WebSocketMessage = SignalingFrame

/// The Sora SDK's `Signaling` enum (SIG-1): "シグナリングメッセージは Signaling 列挙型と種別ごとの
/// クラスで表されます" (a signaling message is the `Signaling` enum with one class per type:
/// `Signaling.notify(SignalingNotify)`, `Signaling.push(SignalingPush)`, ...), the value
/// `mediaChannel.handlers.onReceiveSignaling` receives.
public typealias Signaling = SignalingMessage
