import Simulation
import StageCore
import StageWorld

/// STG-2, TOK-1, TOK-10: connection state changes reach the renderers with their error, so a
/// disconnection the stage service causes names its cause. When a client's renderers are told
/// `disconnected` while the client handles a refused join (`joinRejected`), that state change
/// carries the refusal's error code (TOKEN_MALFORMED, TOKEN_EXPIRED, TOKEN_NOT_ALLOWED, ...);
/// while it handles an ejection, PARTICIPANT_DISCONNECTED. The expected code is read from the
/// service's message, not from the client's handling of it.
public struct DisconnectErrorMonitor: InvariantMonitor {
    public var name: String { "service-disconnections-name-their-error" }
    public var summary: String { "a disconnection caused by a refused join or an ejection reaches the renderers with that error" }
    public var rules: [String] { ["STG-2", "TOK-1", "TOK-10"] }
    /// The client handling a refusal or ejection in the current action, with the code its
    /// `disconnected` must carry.
    private var handling: (observer: String, code: StageErrorCode, cause: String)?

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        switch event.kind {
        case .delivered(.joinRejected(let error, _), _) where event.peer == "server":
            handling = (event.observer, error.code, "refused join")
        case .delivered(.ejected, _) where event.peer == "server":
            handling = (event.observer, .participantDisconnected, "ejection")
        case .renderer(.connectionStateChanged(.disconnected, let error)):
            guard let expected = handling, expected.observer == event.observer else { return [] }
            handling = nil
            guard error?.code != expected.code else { return [] }
            return [violation(event, index: index, "its renderers were told disconnected with \(error.map { "\($0.code.name)" } ?? "no error") after a \(expected.cause) with \(expected.code.name)")]
        case .renderer, .strategyQueried, .sdkError, .layout, .subscriber:
            break
        default:
            handling = nil
        }
        return []
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: the refusal being handled never outlives its action, since every
    /// action's trace opens with its own event (a host call, delivery, timer, loss or service
    /// event, never one of what a client's handling reports), which clears it before a later
    /// action's renderer event.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
