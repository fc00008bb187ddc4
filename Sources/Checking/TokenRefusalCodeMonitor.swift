import Simulation
import StageCore
import StageWorld

/// TOK-1: the stage service refuses a token with the code of its defect. Malformed (its
/// structure, header or payload, TOK-2) -> TOKEN_MALFORMED; signed by a key the service does
/// not trust (unknown or revoked) or with a signature that does not verify ->
/// TOKEN_NOT_ALLOWED; expired on the virtual clock (`exp <= now`, whole seconds) ->
/// TOKEN_EXPIRED; for another stage or resource -> TOKEN_NOT_ALLOWED (ext). The spec orders
/// none of them; the service's order is kept: nothing in a payload counts before its
/// signature verifies, and an expired token is expired whichever stage it names. An exchange
/// refused with a token free of these defects is refused for TOK-3 or TOK-4, with
/// TOKEN_NOT_ALLOWED; a join has no other reason to be refused. The token is the one the
/// step delivered to the service, classified here with the service's key ring and the
/// step's clock, not through the service's verification (`TokenKeyRing.verify`,
/// `TokenRejection.code`), so a wrong code in the model is a disagreement it sees.
public struct TokenRefusalCodeMonitor: InvariantMonitor {
    public var name: String { "refusals-name-the-token-defect" }
    public var summary: String { "a join or exchange the service refuses carries the TOK-1 code of its token's defect: malformed, not allowed or expired" }
    public var rules: [String] { ["TOK-1"] }
    /// The token of the join or exchange the current step delivered to the service; nil
    /// between steps.
    private var token: String?

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard event.observer == "server" else { return [] }
        switch event.kind {
        case .delivered(.join(let token, _), _), .delivered(.exchangeToken(let token), _):
            self.token = token
        case .service(.refused(let operation, let error, _)):
            guard let token else { return [] }
            let nowSeconds = event.time.nanoseconds / 1_000_000_000
            let defect = Self.defect(of: token, keyRing: world.config.keyRing, nowSeconds: nowSeconds, stage: world.config.stageId, resource: world.config.resource)
            if let defect, defect.code != error.code {
                return [violation(event, index: index, "the service refused the \(operation) with \(error.code.name), but the token \(defect.what): \(defect.code.name)")]
            }
            if defect == nil && (operation != "exchangeToken" || error.code != .tokenNotAllowed) {
                return [violation(event, index: index, "the service refused the \(operation) with \(error.code.name), but the token has no TOK-1 defect")]
            }
        default:
            break
        }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        token = nil
        return []
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: the token it holds is emptied at the end of the step that delivered it.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}

extension TokenRefusalCodeMonitor {
    /// The TOK-1 code `token` calls for when joining `stage` at `nowSeconds`, with what is
    /// wrong with it, or nil when nothing is: the monitor's own copy of the rule.
    static func defect(
        of token: String, keyRing: TokenKeyRing, nowSeconds: UInt64, stage: String, resource: String
    ) -> (code: StageErrorCode, what: String)? {
        guard let keyId = TokenCodec.keyIdUnverified(token) else { return (.tokenMalformed, "is not a JWS with an ES384 header") }
        guard let key = keyRing.key(withId: keyId) else { return (.tokenNotAllowed, "names a key the service does not trust") }
        guard signatureVerifies(token, with: key) else { return (.tokenNotAllowed, "has a signature that does not verify") }
        guard let claims = TokenCodec.decodeUnverified(token) else { return (.tokenMalformed, "has a malformed payload") }
        if claims.expiresAtSeconds <= nowSeconds { return (.tokenExpired, "expired at \(claims.expiresAtSeconds) s and it is \(nowSeconds) s") }
        if claims.topic != stage || claims.resource != resource { return (.tokenNotAllowed, "is for another stage") }
        return nil
    }

    /// Whether the token's last segment is an ES384 signature of the rest by `key`.
    private static func signatureVerifies(_ token: String, with key: TokenVerifyingKey) -> Bool {
        let bytes = Array(token.utf8)
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), let signature = Base64URL.decode(Array(bytes[(dot + 1)...])) else { return false }
        return key.isValidSignature(signature, for: Array(bytes[..<dot]))
    }
}
