import Simulation
import StageCore
import StageWorld

/// TOK-1, TOK-5: the stage service holds a participant only with a token for this stage that
/// is unexpired on the virtual clock (`exp > now`, in whole seconds) when the service takes
/// it: at an admission and at an accepted exchange. It reads the claims the service holds
/// after the step and compares them itself, not through the service's verification, so a
/// wrong expiry or stage check in the model is a disagreement it sees.
public struct TokenAdmissionMonitor: InvariantMonitor {
    public var name: String { "admitted-tokens-are-valid-then" }
    public var summary: String { "the service admits a join or accepts an exchange only with a token for this stage that has not expired at that moment" }
    public var rules: [String] { ["TOK-1", "TOK-5"] }

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        let participantId: String
        switch event.kind {
        case .service(.admitted(let info)), .service(.metadataUpdated(let info)): participantId = info.participantId
        default: return []
        }
        guard let claims = world.server.participant(participantId)?.claims else { return [] }
        let nowSeconds = event.time.nanoseconds / 1_000_000_000
        var problems: [String] = []
        if claims.expiresAtSeconds <= nowSeconds { problems.append("its token expired at \(claims.expiresAtSeconds) s and it is \(nowSeconds) s") }
        if claims.topic != world.config.stageId { problems.append("its token is for stage \(claims.topic)") }
        if claims.resource != world.config.resource { problems.append("its token names resource \(claims.resource)") }
        return problems.map { violation(event, index: index, "the service took \(participantId)'s token, yet \($0)") }
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: each verdict reads only the event and the world after its step.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
