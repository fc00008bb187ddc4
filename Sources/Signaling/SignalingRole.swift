/// A connection's role in a Sora channel (SIG-1): `sendrecv`, `sendonly`, `recvonly`;
/// any other text is kept verbatim so a newer server's value still round-trips.
public enum SignalingRole: Hashable, Sendable {
    case sendrecv
    case sendonly
    case recvonly
    case other(String)

    public init(text: String) {
        switch text {
        case "sendrecv": self = .sendrecv
        case "sendonly": self = .sendonly
        case "recvonly": self = .recvonly
        default: self = .other(text)
        }
    }

    /// The wire spelling.
    public var text: String {
        switch self {
        case .sendrecv: "sendrecv"
        case .sendonly: "sendonly"
        case .recvonly: "recvonly"
        case .other(let text): text
        }
    }
}
