/// The `event_type` of a notify message (SIG-5): connection.created, connection.updated,
/// connection.destroyed *(ext)*; any other event type is kept as its text. The Sora page's
/// handler switches on the text (`switch notify.eventType { case "connection.created": ... }`),
/// so a string literal is an event type too.
public enum NotifyEventType: Hashable, Sendable, ExpressibleByStringLiteral {
    case connectionCreated
    case connectionUpdated
    case connectionDestroyed
    case other(String)

    public init(text: String) {
        switch text {
        case "connection.created": self = .connectionCreated
        case "connection.updated": self = .connectionUpdated
        case "connection.destroyed": self = .connectionDestroyed
        default: self = .other(text)
        }
    }

    public init(stringLiteral text: String) { self.init(text: text) }

    /// The wire spelling.
    public var text: String {
        switch self {
        case .connectionCreated: "connection.created"
        case .connectionUpdated: "connection.updated"
        case .connectionDestroyed: "connection.destroyed"
        case .other(let text): text
        }
    }
}
