import Simulation
import StageCore
import StageWorld

/// STG-1, STG-4, TOK-3, TOK-4: the SDK's errors reach the host's one error delegate (an
/// `sdkError` in the trace), in the step that caused them. A publish the stage service refused
/// (its renderers told `errored` with an error, STG-4) and an exchange the service refused
/// (the `exchangeRejected` a client hears while connected, TOK-3) are reported with that
/// error. An
/// `exchangeToken` call is refused at once, with an exchange error, exactly when the SDK cannot
/// take it: an SDK without the API (web, composition), a token that cannot be read, or one
/// that changes an immutable field of the token held when the call was made (TOK-4, read from
/// the call's trace event with this package's own copy of the field list,
/// `ExchangeImmutabilityMonitor.changedField`); any other call is sent, deferred or adopted,
/// with no error.
public struct ErrorDelegateMonitor: InvariantMonitor {
    public var name: String { "errors-reach-the-error-delegate" }
    public var summary: String { "a refused publish or exchange reaches the error delegate in its step; an exchangeToken call is refused at once exactly when TOK-4 forbids it" }
    public var rules: [String] { ["STG-1", "STG-4", "TOK-3", "TOK-4"] }

    /// An error the current step must report at `observer`.
    private struct Owed {
        var observer: String
        var error: StageError
        var event: TraceEvent
        var index: Int
        var cause: String
    }

    /// The `exchangeToken` call the current step made, and why the SDK must refuse it (nil: it
    /// must not).
    private struct ExchangeCall {
        var event: TraceEvent
        var index: Int
        var refusal: String?
    }

    private var owed: [Owed] = []
    private var call: ExchangeCall?
    private var reported: [(observer: String, error: StageError)] = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        switch event.kind {
        case .renderer(.publishStateChanged(let info, .errored, let error?)) where info.isLocal:
            owed.append(Owed(observer: event.observer, error: error, event: event, index: index, cause: "its publish was refused"))
        case .delivered(.exchangeRejected(let error, _), _) where event.peer == "server":
            // A refusal that reaches a client which has left since it asked changes nothing;
            // handling one never changes the connection state, so the state after the step is
            // the state it was handled in.
            guard let client = world.clientIndex(named: event.observer), world.clients[client].view.local.connectionState == .connected else { return [] }
            owed.append(Owed(observer: event.observer, error: error, event: event, index: index, cause: "the service refused its exchange"))
        case .hostCall(.exchangeToken(let token)):
            guard let client = world.clientIndex(named: event.observer) else { return [] }
            call = ExchangeCall(event: event, index: index, refusal: Self.refusal(of: token, replacing: event.replacedToken, sdk: world.clients[client].config.sdk))
        case .sdkError(let report):
            reported.append((event.observer, report.error))
        default:
            break
        }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        defer {
            owed = []
            call = nil
            reported = []
        }
        var violations: [Violation] = []
        for debt in owed where !reported.contains(where: { $0.observer == debt.observer && $0.error == debt.error }) {
            violations.append(violation(debt.event, index: debt.index, "\(debt.cause) with \(debt.error.code.name), but its error delegate was not told"))
        }
        if let call {
            let refused = reported.contains { $0.observer == call.event.observer && $0.error.category == .exchangeToken }
            if let refusal = call.refusal, !refused {
                violations.append(violation(call.event, index: call.index, "exchangeToken with a token that \(refusal) was not refused at once"))
            } else if call.refusal == nil && refused {
                violations.append(violation(call.event, index: call.index, "exchangeToken was refused at once, but the SDK has the API and the token changes no immutable field"))
            }
        }
        return violations
    }

    /// Why the SDK must refuse exchanging `token` for `held` at once, or nil.
    static func refusal(of token: String, replacing held: String?, sdk: SDKKind) -> String? {
        guard case .mobile = sdk else { return "is offered to an SDK without exchangeToken" }
        guard let new = TokenCodec.decodeUnverified(token) else { return "cannot be read" }
        guard let old = held.flatMap(TokenCodec.decodeUnverified), let field = ExchangeImmutabilityMonitor.changedField(from: old, to: new) else { return nil }
        return "changes \(field)"
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: what it holds is emptied at the end of the step that made it.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
