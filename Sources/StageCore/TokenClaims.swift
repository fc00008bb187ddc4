/// The payload of a stage participant token (TOK-2; field names ext).
public struct TokenClaims: Hashable, Sendable {
    /// Stage id (`topic`).
    public var topic: String
    /// Stage ARN-like id (`resource`).
    public var resource: String
    /// Participant id (`jti`), `[A-Za-z0-9_-]`.
    public var participantId: String
    public var whipURL: String
    public var eventsURL: String
    public var attributes: Attributes
    public var capabilities: Capabilities
    public var userId: String
    /// Issued-at and expiry on the virtual clock, in seconds.
    public var issuedAtSeconds: UInt64
    public var expiresAtSeconds: UInt64

    public init(
        topic: String, resource: String, participantId: String, whipURL: String, eventsURL: String,
        attributes: Attributes, capabilities: Capabilities, userId: String,
        issuedAtSeconds: UInt64, expiresAtSeconds: UInt64
    ) {
        self.topic = topic
        self.resource = resource
        self.participantId = participantId
        self.whipURL = whipURL
        self.eventsURL = eventsURL
        self.attributes = attributes
        self.capabilities = capabilities
        self.userId = userId
        self.issuedAtSeconds = issuedAtSeconds
        self.expiresAtSeconds = expiresAtSeconds
    }

    /// The maximum total size of `attributes` keys and values (TOK-2).
    public static let attributesByteLimit = 1024

    /// Whether a participant id uses only `[A-Za-z0-9_-]` and is not empty (TOK-2).
    public static func isValidParticipantId(_ id: String) -> Bool {
        !id.isEmpty && id.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                || scalar == "_" || scalar == "-"
        }
    }

    /// The first payload field that exchangeToken may not change and that differs between the
    /// two tokens, by its JWT name (TOK-4), or nil when all are equal.
    public static func changedImmutableField(from current: TokenClaims, to new: TokenClaims) -> String? {
        let fields: [(String, KeyPath<TokenClaims, String>)] = [
            ("topic", \.topic), ("resource", \.resource), ("jti", \.participantId),
            ("whip_url", \.whipURL), ("events_url", \.eventsURL),
        ]
        return fields.first { current[keyPath: $0.1] != new[keyPath: $0.1] }?.0
    }

    /// The ParticipantInfo this token gives its holder.
    public func participantInfo(isLocal: Bool) -> ParticipantInfo {
        ParticipantInfo(
            participantId: participantId, userId: userId, isLocal: isLocal,
            attributes: attributes, capabilities: capabilities
        )
    }
}
