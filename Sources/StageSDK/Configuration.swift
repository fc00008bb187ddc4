/// The Sora SDK's `Configuration`, as far as the Sora page uses it (SIG-2, SIG-3): the two
/// connect metadata properties, "メタデータは Configuration の次のプロパティで指定できます"
/// (`metadata -> Configuration.signalingConnectMetadata`, `notifyMetadata ->
/// Configuration.signalingConnectNotifyMetadata`), each any `Encodable` value. A stage holds one
/// (`Stage.configuration`), so the page's `config.signalingConnectMetadata = "contents"` works on
/// a copy the app then gives the stage, or on `stage.configuration` itself. The URL, channel and
/// role of Sora's own configuration are the simulated stage's, so they are not here.
public struct Configuration {
    /// The `metadata` of `connect`: `"contents"` gives `{"type":"connect","metadata":"contents",...}`.
    public var signalingConnectMetadata: (any Encodable)?
    /// The `signaling_notify_metadata` of `connect`, passed on to the other participants in
    /// `notify` connection.created.
    public var signalingConnectNotifyMetadata: (any Encodable)?

    public init(signalingConnectMetadata: (any Encodable)? = nil, signalingConnectNotifyMetadata: (any Encodable)? = nil) {
        self.signalingConnectMetadata = signalingConnectMetadata
        self.signalingConnectNotifyMetadata = signalingConnectNotifyMetadata
    }
}
