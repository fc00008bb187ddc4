import StageCore

/// A change in what the stage service holds about a participant, recorded in the trace so that
/// monitors and reports can see the service's side of token exchange and publishing (TOK, VIS).
public enum ServiceEvent: Hashable, Sendable {
    /// A join verified: the participant is connected with this info (TOK-1).
    case admitted(ParticipantInfo)
    /// An exchanged token verified: the participant's info is now this (TOK-5).
    case metadataUpdated(ParticipantInfo)
    /// The participant started publishing; observers announce it with this info (VIS-2, VIS-4).
    case publishing(ParticipantInfo)
    /// The participant left the registry, by its own leave or because the service dropped it;
    /// whether it was publishing then.
    case left(participantId: String, wasPublishing: Bool)
    /// The service ended a participant's publish itself (TOK-7: its token no longer allows it).
    case publishStopped(participantId: String, reason: String)
    /// A connection was dropped by the service (TOK-10).
    case ejected(participantId: String, reason: String)
    /// A publisher's connection was dropped and the service keeps it for the reconnect grace
    /// period, its subscribers told its stream is interrupted (SUB-4).
    case interrupted(participantId: String, reason: String)
    /// A join or exchange was refused (TOK-1, TOK-3, TOK-4).
    case refused(operation: String, error: StageError, reason: String)

    public var summary: String {
        switch self {
        case .admitted(let info): "admitted \(TraceText.info(info))"
        case .metadataUpdated(let info): "metadataUpdated \(TraceText.info(info))"
        case .publishing(let info): "publishing \(TraceText.info(info))"
        case .left(let id, let wasPublishing): "left \(id)\(wasPublishing ? " (was publishing)" : "")"
        case .publishStopped(let id, let reason): "publishStopped \(id) (\(reason))"
        case .ejected(let id, let reason): "ejected \(id) (\(reason))"
        case .interrupted(let id, let reason): "interrupted \(id) (\(reason))"
        case .refused(let operation, let error, let reason): "refused \(operation): \(error): \(reason)"
        }
    }
}

/// An error the SDK hands to the app's error delegate (STG-1's one error delegate): an exchange
/// refused at once or by the service (TOK-3, TOK-4), a refused publish (STG-4), an ejection
/// (TOK-10). The operation that failed is the error's category.
public struct SDKErrorReport: Hashable, Sendable {
    public var error: StageError
    public var reason: String

    public init(error: StageError, reason: String) {
        self.error = error
        self.reason = reason
    }

    /// The operation that failed, e.g. `exchangeToken`: the error's category.
    public var operation: String { error.category.rawValue }

    public var summary: String { "\(operation) failed: \(error): \(reason)" }
}
