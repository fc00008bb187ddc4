/// Why the stage service refused a token (TOK-1), with a human-readable reason.
public enum TokenRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a well-formed ES384 JWS with a valid TOK-2 payload: TOKEN_MALFORMED.
    case malformed(String)
    /// `exp <= now` on the virtual clock: TOKEN_EXPIRED.
    case expired(expiresAt: UInt64, now: UInt64)
    /// Unknown or revoked key, bad signature, or another stage's token: TOKEN_NOT_ALLOWED.
    case notAllowed(String)

    /// The TOK-1 stage error code of this rejection.
    public var code: StageErrorCode {
        switch self {
        case .malformed: .tokenMalformed
        case .expired: .tokenExpired
        case .notAllowed: .tokenNotAllowed
        }
    }

    /// The fatal join error the SDK reports for this rejection (TOK-1).
    public var stageError: StageError { StageError(code: code, category: .join, isFatal: true) }

    /// What was wrong, in words.
    public var reason: String {
        switch self {
        case .malformed(let reason), .notAllowed(let reason): reason
        case .expired(let expiresAt, let now): "token expired at \(expiresAt) s, now is \(now) s"
        }
    }

    /// `CODE_NAME: reason`, for traces and test failures.
    public var description: String { "\(code.name): \(reason)" }
}

/// A token that passed every TOK-1 check: its claims, who signed it and with which key (TOK-3).
public struct VerifiedToken: Hashable, Sendable {
    /// The verified payload (TOK-2).
    public var claims: TokenClaims
    /// The origin of the key that signed it; exchange accepts only `keyPair` (TOK-3).
    public var origin: TokenOrigin
    /// The id of the key that signed it.
    public var keyId: String

    /// A verification result; `TokenKeyRing.verify` is the normal way to get one.
    public init(claims: TokenClaims, origin: TokenOrigin, keyId: String) {
        self.claims = claims
        self.origin = origin
        self.keyId = keyId
    }
}

/// The token keys a stage service trusts (TOK-1, TOK-3): registered app public keys and the
/// service's own key, plus the ids of revoked keys. Both lists are kept sorted by key id.
public struct TokenKeyRing: Hashable, Sendable {
    /// The trusted keys, sorted by key id, at most one per id.
    public private(set) var keys: [TokenVerifyingKey] = []
    /// Ids of revoked keys, sorted; tokens naming them are not allowed.
    public private(set) var revokedKeyIds: [String] = []

    /// A ring trusting `keys` (a later key replaces an earlier one with the same id).
    public init(_ keys: [TokenVerifyingKey] = []) {
        for key in keys { register(key) }
    }

    /// Trusts `key`, replacing any key with the same id and lifting a revocation of that id.
    public mutating func register(_ key: TokenVerifyingKey) {
        revokedKeyIds.removeAll { $0 == key.keyId }
        keys.removeAll { $0.keyId == key.keyId }
        keys.insert(key, at: keys.firstIndex { key.keyId < $0.keyId } ?? keys.endIndex)
    }

    /// Stops trusting the key `keyId` (TOK-1: its tokens become TOKEN_NOT_ALLOWED).
    public mutating func revoke(keyId: String) {
        keys.removeAll { $0.keyId == keyId }
        guard !revokedKeyIds.contains(keyId) else { return }
        revokedKeyIds.insert(keyId, at: revokedKeyIds.firstIndex { keyId < $0 } ?? revokedKeyIds.endIndex)
    }

    /// The trusted key with id `keyId`, if any.
    public func key(withId keyId: String) -> TokenVerifyingKey? { keys.first { $0.keyId == keyId } }

    /// Checks `token` for joining stage `topic`/`resource` at virtual time `nowSeconds` (TOK-1),
    /// in order: structure, header, key, signature, claims (TOK-2), expiry (`exp > now`), stage.
    public func verify(
        _ token: String, nowSeconds: UInt64, topic: String, resource: String
    ) -> Result<VerifiedToken, TokenRejection> {
        verifySignature(token).flatMap { Self.check($0, nowSeconds: nowSeconds, topic: topic, resource: resource) }
    }

    /// The checks of `verify` that depend on the token alone, in its order: structure, header,
    /// key, signature, claims. A pure function of the token and the ring.
    public func verifySignature(_ token: String) -> Result<VerifiedToken, TokenRejection> {
        let segments: TokenSegments
        let keyId: String
        switch TokenSegments.parse(token) {
        case .success(let parsed): segments = parsed
        case .failure(let rejection): return .failure(rejection)
        }
        switch TokenCodec.keyId(fromHeader: segments.header) {
        case .success(let id): keyId = id
        case .failure(let rejection): return .failure(rejection)
        }
        guard !revokedKeyIds.contains(keyId) else { return .failure(.notAllowed("key \(TokenCodec.quoted(keyId)) is revoked")) }
        guard let key = key(withId: keyId) else { return .failure(.notAllowed("key \(TokenCodec.quoted(keyId)) is unknown")) }
        guard segments.signature.count == 96 else {
            return .failure(.notAllowed("signature is \(segments.signature.count) bytes, ES384 needs 96"))
        }
        guard key.isValidSignature(segments.signature, for: segments.signingInput) else {
            return .failure(.notAllowed("signature does not verify with key \(TokenCodec.quoted(keyId))"))
        }
        let claims: TokenClaims
        switch TokenCodec.claims(fromPayload: segments.payload) {
        case .success(let decoded): claims = decoded
        case .failure(let rejection): return .failure(rejection)
        }
        return .success(VerifiedToken(claims: claims, origin: key.origin, keyId: keyId))
    }

    /// The rest of `verify` for a token whose signature verified: expiry, then the stage.
    public static func check(
        _ verified: VerifiedToken, nowSeconds: UInt64, topic: String, resource: String
    ) -> Result<VerifiedToken, TokenRejection> {
        let claims = verified.claims
        guard claims.expiresAtSeconds > nowSeconds else {
            return .failure(.expired(expiresAt: claims.expiresAtSeconds, now: nowSeconds))
        }
        guard claims.topic == topic else {
            return .failure(.notAllowed("token topic \(TokenCodec.quoted(claims.topic)) is not stage \(TokenCodec.quoted(topic))"))
        }
        guard claims.resource == resource else {
            return .failure(.notAllowed("token resource \(TokenCodec.quoted(claims.resource)) is not \(TokenCodec.quoted(resource))"))
        }
        return .success(verified)
    }
}
