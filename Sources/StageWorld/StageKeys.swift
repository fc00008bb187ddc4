import StageCore
import Synchronization

/// Which key signs a token that a scenario or test declares by its claims (TOK-1, TOK-3).
public enum TokenSigner: String, Hashable, Sendable, CaseIterable {
    /// The app's key pair, registered with the stage service: a key-pair token.
    case app
    /// The service's own key: a token from the CreateParticipantToken API (no exchange).
    case service
    /// A key the service has never seen: a forged token.
    case unknown
    /// An app key the service has revoked.
    case revoked
}

/// A token as declared: claims that StageSim signs, or a raw string given as is (malformed and
/// forged tokens).
public enum TokenSource: Hashable, Sendable {
    case signed(TokenClaims, by: TokenSigner)
    case raw(String)
}

private struct SignedTokenKey: Hashable {
    var claims: TokenClaims
    var signer: TokenSigner
    var keyId: String
}

private let signedTokens = Mutex<[SignedTokenKey: String]>([:])

/// The simulated deployment's keys: the app's P-384 key pair, the service's key, a rogue key
/// and a revoked app key, each derived from a fixed seed so that every process has the same
/// public keys (TOK-3). The service trusts the app and service keys.
public struct StageKeys: Sendable {
    public let app: TokenSigningKey
    public let service: TokenSigningKey
    public let unknown: TokenSigningKey
    public let revoked: TokenSigningKey

    /// The keys every world uses; derived once per process.
    public static let standard = StageKeys(seed: 0x5354_4147_454B_4559)

    public init(seed: UInt64) {
        app = TokenSigningKey(keyId: "app-key-1", origin: .keyPair, seed: seed)
        service = TokenSigningKey(keyId: "ivs-service-key", origin: .service, seed: seed)
        unknown = TokenSigningKey(keyId: "app-key-rogue", origin: .keyPair, seed: seed)
        revoked = TokenSigningKey(keyId: "app-key-0", origin: .keyPair, seed: seed)
    }

    /// What the stage service trusts: the app and service keys, and the revoked key marked revoked.
    public var keyRing: TokenKeyRing {
        var ring = TokenKeyRing()
        ring.register(app.verifyingKey)
        ring.register(service.verifyingKey)
        ring.register(revoked.verifyingKey)
        ring.revoke(keyId: revoked.keyId)
        return ring
    }

    /// Which of these keys has this key id, if any (for trace summaries: who signed a token).
    public func signer(ofKeyId keyId: String) -> TokenSigner? {
        TokenSigner.allCases.first { key($0).keyId == keyId }
    }

    public func key(_ signer: TokenSigner) -> TokenSigningKey {
        switch signer {
        case .app: app
        case .service: service
        case .unknown: unknown
        case .revoked: revoked
        }
    }

    /// The token string for a declared token. Signing is a function of the claims and the key
    /// (`FixedNonceSigner`); each distinct (claims, signer) is still signed once per process and
    /// its token reused, which spares the encoding and the signing. The signing is done outside the cache's lock, so that other
    /// threads' look-ups do not wait for it; when two threads sign the same claims at once,
    /// the token stored first is the one both return.
    public func token(_ source: TokenSource) -> String {
        switch source {
        case .raw(let text):
            return text
        case .signed(let claims, let signer):
            let cacheKey = SignedTokenKey(claims: claims, signer: signer, keyId: key(signer).keyId)
            if let token = signedTokens.withLock({ $0[cacheKey] }) { return token }
            let token = key(signer).sign(claims)
            return signedTokens.withLock { cache in
                if let stored = cache[cacheKey] { return stored }
                cache[cacheKey] = token
                return token
            }
        }
    }

    /// The `resource` (ARN-like id) of a stage (TOK-2).
    public static func resource(forStage stageId: String) -> String { "arn:stagesim:stage/\(stageId)" }

    /// Claims for a participant of `stageId` with the deployment's URLs, valid from `issuedAt`
    /// for `validForSeconds`.
    public static func claims(
        participantId: String, stageId: String, userId: String = "", attributes: Attributes = [:],
        capabilities: Capabilities = Capabilities(), issuedAtSeconds: UInt64 = 0, validForSeconds: UInt64 = 3600
    ) -> TokenClaims {
        TokenClaims(
            topic: stageId, resource: resource(forStage: stageId), participantId: participantId,
            whipURL: "https://sim.invalid/whip", eventsURL: "wss://sim.invalid/events",
            attributes: attributes, capabilities: capabilities, userId: userId,
            issuedAtSeconds: issuedAtSeconds, expiresAtSeconds: issuedAtSeconds + validForSeconds
        )
    }
}
