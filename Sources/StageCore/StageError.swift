/// The stage error codes, in the web SDK's numbering (ext), each with its category and fatality.
public enum StageErrorCode: Int, Hashable, Sendable, CaseIterable {
    case tokenMalformed = 1
    case tokenExpired = 2
    case timeout = 3
    case failed = 4
    case canceled = 5
    case stageAtCapacity = 6
    case codecMismatch = 7
    case tokenNotAllowed = 8
    case stageDeleted = 9
    case participantDisconnected = 10

    /// The SDK's spelling, e.g. `TOKEN_EXPIRED`.
    public var name: String {
        switch self {
        case .tokenMalformed: "TOKEN_MALFORMED"
        case .tokenExpired: "TOKEN_EXPIRED"
        case .timeout: "TIMEOUT"
        case .failed: "FAILED"
        case .canceled: "CANCELED"
        case .stageAtCapacity: "STAGE_AT_CAPACITY"
        case .codecMismatch: "CODEC_MISMATCH"
        case .tokenNotAllowed: "TOKEN_NOT_ALLOWED"
        case .stageDeleted: "STAGE_DELETED"
        case .participantDisconnected: "PARTICIPANT_DISCONNECTED"
        }
    }

    public init?(name: String) {
        guard let code = StageErrorCode.allCases.first(where: { $0.name == name }) else { return nil }
        self = code
    }
}

/// The operation a stage error belongs to: the call or session that failed. The web SDK's
/// categories are join, publish and subscribe (ext); the mobile-only `exchangeToken` (TOK-3,
/// TOK-4) and a session the service ended (`connection`, TOK-10) are not joins, so they have
/// categories of their own (assumed).
public enum StageErrorCategory: String, Hashable, Sendable, CaseIterable {
    /// Joining, retrying a join (STG-3) or reconnecting (NET-3) failed (TOK-1).
    case join
    /// The service refused a publish (STG-4, TOK-7).
    case publish
    /// The service refused a subscription (TOK-8).
    case subscribe
    /// An exchanged token was refused, by the SDK at once or by the service (TOK-3, TOK-4).
    case exchangeToken
    /// The service ended a connected session: an ejection (TOK-10).
    case connection
}

/// An error the SDK reports with a connection, publish or subscribe state change (STG-2, TOK-1, STG-4).
public struct StageError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: StageErrorCode
    public var category: StageErrorCategory
    public var isFatal: Bool

    public init(code: StageErrorCode, category: StageErrorCategory, isFatal: Bool) {
        self.code = code
        self.category = category
        self.isFatal = isFatal
    }

    public var description: String { "\(code.name)(\(code.rawValue), \(category.rawValue)\(isFatal ? ", fatal" : ""))" }
}
