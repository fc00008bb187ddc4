import Crypto
import Foundation

/// Who signed a token (TOK-3): `keyPair` tokens are signed by an app's P-384 key registered
/// with the stage service (the only ones token exchange accepts); `service` tokens come from
/// the CreateParticipantToken API and are signed by the stage service's own key.
public enum TokenOrigin: String, Hashable, Sendable {
    case keyPair, service
}

/// The public half of a token signing key, as the stage service registers it (TOK-1, TOK-3):
/// key id, origin, and the P-384 public key as an ANSI X9.63 point (97 bytes, `04 || x || y`).
public struct TokenVerifyingKey: Hashable, Sendable {
    /// The id tokens name in their header `kid`.
    public let keyId: String
    /// Whose key this is: an app's (`keyPair`) or the service's own (TOK-3).
    public let origin: TokenOrigin
    /// The public key, `04 || x || y` with 48-byte coordinates.
    public let x963Representation: [UInt8]

    /// A key imported from its X9.63 bytes; nil unless they are a point on P-384.
    public init?(keyId: String, origin: TokenOrigin, x963Representation: [UInt8]) {
        guard (try? P384.Signing.PublicKey(x963Representation: x963Representation)) != nil else { return nil }
        self.init(validated: keyId, origin: origin, x963Representation: x963Representation)
    }

    private init(validated keyId: String, origin: TokenOrigin, x963Representation: [UInt8]) {
        self.keyId = keyId
        self.origin = origin
        self.x963Representation = x963Representation
    }

    init(keyId: String, origin: TokenOrigin, publicKey: P384.Signing.PublicKey) {
        self.init(validated: keyId, origin: origin, x963Representation: Array(publicKey.x963Representation))
    }

    /// Whether `signature` is a raw 96-byte ES384 signature (`r || s`) of `message` by this key (TOK-1).
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == 2 * 48 else { return false }
        return SignatureCache.verdict(SignatureCache.Entry(publicKey: x963Representation, message: message, signature: signature)) {
            guard let publicKey = try? P384.Signing.PublicKey(x963Representation: x963Representation),
                  let ecdsa = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return publicKey.isValidSignature(ecdsa, for: message)
        }
    }
}

/// A P-384 token signing key (TOK-3): an app's key pair (`keyPair`) or the stage service's own
/// key (`service`). The private key is derived from `(seed, keyId)` alone, so a scenario run
/// always has the same keys, and each token the same signature (`FixedNonceSigner`).
public struct TokenSigningKey: Sendable, CustomStringConvertible {
    /// The id written into each token's header `kid`.
    public let keyId: String
    /// Whose key this is (TOK-3).
    public let origin: TokenOrigin
    /// The public half, to register with a `TokenKeyRing`.
    public let verifyingKey: TokenVerifyingKey
    /// Signs with the private scalar (`FixedNonceSigner`).
    private let signer: FixedNonceSigner

    /// The key for `(seed, keyId)`: the private scalar is SHA-384 over the seed's 8 little-endian
    /// bytes and the key id's UTF-8, with a 4-byte little-endian counter appended on the
    /// (practically impossible) retry when that digest is not a valid P-384 scalar.
    public init(keyId: String, origin: TokenOrigin, seed: UInt64) {
        let privateKey = Self.derive(keyId: keyId, seed: seed)
        self.keyId = keyId
        self.origin = origin
        self.verifyingKey = TokenVerifyingKey(keyId: keyId, origin: origin, publicKey: privateKey.publicKey)
        self.signer = FixedNonceSigner(privateScalar: privateKey.rawRepresentation)
    }

    private static func derive(keyId: String, seed: UInt64) -> P384.Signing.PrivateKey {
        var counter: UInt32 = 0
        while true {
            var input = withUnsafeBytes(of: seed.littleEndian) { Array($0) }
            input.append(contentsOf: keyId.utf8)
            if counter > 0 { input.append(contentsOf: withUnsafeBytes(of: counter.littleEndian) { Array($0) }) }
            if let key = try? P384.Signing.PrivateKey(rawRepresentation: Array(SHA384.hash(data: input))) { return key }
            counter &+= 1
        }
    }

    /// A compact JWS of `claims` (TOK-2, TOK-3): canonical header and payload, ES384 signature.
    /// The signature is a function of the key and the claims (`FixedNonceSigner`), so a token
    /// is the same in every process. Should a signature ever be impossible to make, the
    /// signature segment is left empty, so the token fails closed as malformed instead of trapping.
    public func sign(_ claims: TokenClaims) -> String {
        sign(header: TokenCodec.headerJSON(keyId: keyId), payload: TokenCodec.payloadJSON(claims))
    }

    /// Signs arbitrary header and payload bytes (tests use it to build signed malformed tokens).
    func sign(header: [UInt8], payload: [UInt8]) -> String {
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        guard let raw = signer.signature(for: Array(signingInput.utf8)) else { return signingInput + "." }
        SignatureCache.remember(SignatureCache.Entry(publicKey: verifyingKey.x963Representation, message: Array(signingInput.utf8), signature: raw), true)
        return signingInput + "." + Base64URL.encode(raw)
    }

    /// Names the key without revealing the private scalar.
    public var description: String { "TokenSigningKey(\(keyId), \(origin.rawValue))" }
}

