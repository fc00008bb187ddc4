/// Which way a signaling message may travel (SIG-2): connect (with metadata and
/// notifyMetadata) is send-only, notify (authn/authz/metadata) and push (data) receive-only,
/// as seen from the client SDK.
public enum SignalingDirection: String, Hashable, Sendable, CaseIterable {
    case clientToServer
    case serverToClient
    case both

    /// True when a message of this direction may arrive at `side`.
    public func mayArrive(at side: SignalingSide) -> Bool {
        switch (self, side) {
        case (.both, _), (.clientToServer, .server), (.serverToClient, .client): true
        default: false
        }
    }
}

/// The end of the signaling connection an endpoint sits at (SIG-2).
public enum SignalingSide: String, Hashable, Sendable, CaseIterable {
    case client
    case server
}
