/// The session's media mode (SUB-5): `routed` sessions go through the OpenTok Media Router,
/// which alone does quality fallback (`qualityChanged`) and scalable-layer selection (SUB-8);
/// `relayed` sessions send media peer to peer and never disable video for quality.
public enum OpenTokMediaMode: String, Sendable, Hashable, CaseIterable {
    case routed, relayed
}
