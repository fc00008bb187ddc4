import Simulation
import StageCore
import StageWorld

/// Changes a step makes to a participant's strategy: keys left nil keep the current answers
/// (`setStrategy` patches this way; STR-1, STR-3, STR-4).
public struct StrategyPatch: Hashable, Sendable {
    public var publish: Bool?
    public var streams: [LocalStream]?
    public var subscribe: SubscribeType?
    public var rules: [SubscribeRule]?

    public init(publish: Bool? = nil, streams: [LocalStream]? = nil, subscribe: SubscribeType? = nil, rules: [SubscribeRule]? = nil) {
        self.publish = publish
        self.streams = streams
        self.subscribe = subscribe
        self.rules = rules
    }

    public func applied(to base: StrategySpec) -> StrategySpec {
        StrategySpec(publish: publish ?? base.publish, streams: streams ?? base.streams, subscribe: subscribe ?? base.subscribe, rules: rules ?? base.rules)
    }
}

/// Changes an exchanged token makes to the participant's declared (join) token claims; `iat`
/// is the step's time unless `issuedAtSeconds` says otherwise (TOK-3..8).
public struct ClaimsPatch: Hashable, Sendable {
    public var userId: String?
    public var attributes: Attributes?
    public var capabilities: Capabilities?
    public var expiresAtSeconds: UInt64?
    public var issuedAtSeconds: UInt64?
    public var topic: String?
    public var resource: String?
    public var participantId: String?
    public var whipURL: String?
    public var eventsURL: String?
    public var signer: TokenSigner = .app

    public init() {}

    /// The token this patch makes from `declared` in a step at `at`.
    public func token(patching declared: TokenClaims, at: VirtualDuration) -> TokenSource {
        var claims = declared
        claims.issuedAtSeconds = issuedAtSeconds ?? at.nanoseconds / 1_000_000_000
        if let userId { claims.userId = userId }
        if let attributes { claims.attributes = attributes }
        if let capabilities { claims.capabilities = capabilities }
        if let expiresAtSeconds { claims.expiresAtSeconds = expiresAtSeconds }
        if let topic { claims.topic = topic }
        if let resource { claims.resource = resource }
        if let participantId { claims.participantId = participantId }
        if let whipURL { claims.whipURL = whipURL }
        if let eventsURL { claims.eventsURL = eventsURL }
        return .signed(claims, by: signer)
    }
}

/// The token of an `exchangeToken` step: a raw string, or a patch of the declared claims.
public enum ExchangedToken: Hashable, Sendable {
    case raw(String)
    case patch(ClaimsPatch)
}

/// A host call as a script states it, before it is resolved against the participant's
/// current strategy and declared token. Scenario files and generated drafts both say this.
public enum ScriptCall: Hashable, Sendable {
    case join
    case leave
    case refreshStrategy
    case setStrategy(StrategyPatch)
    case setMuted(MediaKind, muted: Bool)
    case exchangeToken(ExchangedToken)
    case setPreferredResolution(publisherId: String, widthPixels: Int, heightPixels: Int)
    case setPreferredFrameRate(publisherId: String, framesPerSecond: Int)

    public static let names = [
        "join", "leave", "refreshStrategy", "setStrategy", "setMuted", "exchangeToken", "setPreferredResolution", "setPreferredFrameRate",
    ]
}

/// What a script has said so far about each participant (its strategy after every patch and
/// mute, its declared token), so that each step resolves to the `HostCall` the world runs.
struct ScriptState {
    private var strategies: [String: StrategySpec] = [:]
    private var declaredTokens: [String: TokenClaims] = [:]

    init(_ participants: [ParticipantSpec]) {
        for participant in participants {
            strategies[participant.name] = participant.config.strategy
            if case .signed(let claims, _) = participant.config.token { declaredTokens[participant.name] = claims }
        }
    }

    /// Whether `participant` declared its token as claims (an exchange may then patch them).
    func hasDeclaredClaims(_ participant: String) -> Bool { declaredTokens[participant] != nil }

    /// The host call for `call`; nil only for a claims patch on a raw declared token.
    mutating func hostCall(_ call: ScriptCall, participant: String, at: VirtualDuration) -> HostCall? {
        switch call {
        case .join: return .join
        case .leave: return .leave
        case .refreshStrategy: return .refreshStrategy
        case .setStrategy(let patch):
            let patched = patch.applied(to: strategies[participant] ?? StrategySpec())
            strategies[participant] = patched
            return .setStrategy(patched)
        case .setMuted(let kind, let muted):
            if let current = strategies[participant] {
                strategies[participant]?.streams = current.streams.map { stream in
                    var changed = stream
                    if stream.kind == kind { changed.isMuted = muted }
                    return changed
                }
            }
            return .setMuted(kind, muted)
        case .exchangeToken(.raw(let text)): return .exchangeToken(text)
        case .exchangeToken(.patch(let patch)):
            guard let declared = declaredTokens[participant] else { return nil }
            return .exchangeToken(StageKeys.standard.token(patch.token(patching: declared, at: at)))
        case .setPreferredResolution(let publisher, let width, let height):
            return .setPreferredResolution(publisherId: publisher, widthPixels: width, heightPixels: height)
        case .setPreferredFrameRate(let publisher, let fps):
            return .setPreferredFrameRate(publisherId: publisher, framesPerSecond: fps)
        }
    }
}
