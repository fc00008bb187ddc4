import StageCore

/// A call the host application makes on its Stage (STG-1, STR-5) or strategy.
public enum HostCall: Hashable, Sendable {
    case join
    case leave
    case refreshStrategy
    /// Replaces the strategy's answers; like changing the variables a real strategy reads, it
    /// takes effect at the next refreshStrategy (or when the SDK next asks).
    case setStrategy(StrategySpec)
    /// LocalStageStream.setMuted on the local stream of this kind (LST-1).
    case setMuted(MediaKind, Bool)
    /// exchangeToken(new) (TOK-4..8): the token string as the app passes it.
    case exchangeToken(String)
    /// The subscriber to this publisher's stream prefers at most this size (SUB-8); 0x0 clears it.
    case setPreferredResolution(publisherId: String, widthPixels: Int, heightPixels: Int)
    /// The subscriber to this publisher's stream prefers at most this frame rate (SUB-8); 0 clears it.
    case setPreferredFrameRate(publisherId: String, framesPerSecond: Int)

    public var summary: String {
        switch self {
        case .join: "join()"
        case .leave: "leave()"
        case .refreshStrategy: "refreshStrategy()"
        case .setStrategy(let spec): "setStrategy(\(TraceText.strategy(spec)))"
        case .setMuted(let kind, let muted): "setMuted(\(kind.rawValue), \(muted))"
        case .exchangeToken(let token): "exchangeToken(\(TraceText.token(token)))"
        case .setPreferredResolution(let id, let width, let height): "subscriber(\(id)).preferredResolution = \(width)x\(height)"
        case .setPreferredFrameRate(let id, let fps): "subscriber(\(id)).preferredFrameRate = \(fps)"
        }
    }
}
