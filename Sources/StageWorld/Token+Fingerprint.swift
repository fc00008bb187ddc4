import Simulation
import StageCore

/// A token string as the model checker's state encoding sees it: its claims and how the stage
/// service's keys judge its signature, never the string itself, whose ECDSA signature differs
/// in every process. Reading is a pure function of the token and the key ring, so each pair is
/// read once per process.
struct TokenReading: Sendable {
    /// Hashed by the token alone: hashing a key ring (public keys) per lookup would cost more
    /// than the reading saves. Equality still compares the rings, which share storage in a run.
    struct Key: Hashable, Sendable {
        var token: String
        var keyRing: TokenKeyRing

        func hash(into hasher: inout Hasher) { hasher.combine(token) }
    }

    /// The claims, or nil when the token cannot be read.
    var claims: TokenClaims?
    /// The key that verifies it, or why none does (expiry is judged at time zero: it is a
    /// property of the claims, written with them).
    var verdict: Result<VerifiedToken, TokenRejection>
    /// The checks of the token alone (`TokenKeyRing.verifySignature`), which the stage service
    /// completes with the time and the stage (`StageServer.verify`).
    var signature: Result<VerifiedToken, TokenRejection>

    static let cache = MemoCache<Key, TokenReading>(capacity: 20_000)

    static func of(_ token: String, keyRing: TokenKeyRing) -> TokenReading {
        cache.value(for: Key(token: token, keyRing: keyRing)) {
            let claims = TokenCodec.decodeUnverified(token)
            let verdict = keyRing.verify(token, nowSeconds: 0, topic: claims?.topic ?? "", resource: claims?.resource ?? "")
            return TokenReading(claims: claims, verdict: verdict, signature: keyRing.verifySignature(token))
        }
    }
}

/// A token's bytes in the state encoding (`writeToken`) without renaming, made once where a
/// client takes the token; equal when the bytes are (they are a function of the token).
struct TokenEncoding: Hashable, Sendable {
    let bytes: [UInt8]

    init(token: String, keyRing: TokenKeyRing) {
        var writer = CanonicalWriter(reservingCapacity: 512)
        writer.writeToken(token, keyRing: keyRing)
        bytes = writer.bytes
    }
}

extension CanonicalWriter {
    /// A client's token: its encoding made when the client took it, when that was made under
    /// `keyRing` and the writer renames nothing (no symmetry); otherwise `writeToken`.
    mutating func writeToken(of client: Client, keyRing: TokenKeyRing) {
        guard let encoding = client.tokenEncoding, !renames, client.tokenKeyRing == keyRing else {
            return writeToken(client.token, keyRing: keyRing)
        }
        writeEncoded(encoding.bytes)
    }

    /// A token by its claims and its signature's verdict under `keyRing`; a token that cannot
    /// be read is written whole (it holds no signature that verifies).
    mutating func writeToken(_ token: String, keyRing: TokenKeyRing) {
        let reading = TokenReading.of(token, keyRing: keyRing)
        guard let claims = reading.claims else {
            writeTag(0)
            return write(token)
        }
        writeTag(1)
        claims.encode(to: &self)
        switch reading.verdict {
        case .success(let verified):
            writeTag(0)
            write(verified.keyId)
            verified.origin.encode(to: &self)
        case .failure(let rejection):
            writeTag(1)
            writeCase(rejection.code)
            write(rejection.reason)
        }
    }
}
