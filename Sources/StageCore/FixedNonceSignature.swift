import BigInt
import Crypto
import Foundation

/// ES384 signatures (TOK-2, TOK-3) made with one fixed nonce: s = k⁻¹(z + r·d) mod n, with
/// k, k⁻¹ and r = x(k·G) mod n computed once per process, so a signature costs a SHA-384 and
/// one multiplication modulo the group order instead of a scalar multiplication of the curve.
/// They are ordinary ECDSA signatures and verify as such (`TokenKeyRing.verify`).
///
/// A reused nonce reveals the private key to whoever holds two signatures. That costs nothing
/// here: every StageSim key is derived from a published seed (`StageKeys`), so no key is
/// secret to begin with; in exchange a token is the same in every process, byte for byte.
struct FixedNonceSigner: Sendable {
    /// r·d mod n for this key's private scalar d.
    private let rTimesKey: BigUInt

    /// `privateScalar`: the key's 48-byte big-endian scalar.
    init(privateScalar: some DataProtocol) {
        rTimesKey = (Nonce.shared.r * BigUInt(Data(privateScalar))) % Nonce.order
    }

    /// The 96-byte raw signature (r then s, big-endian) of `message`; nil in the
    /// practically impossible case that s (or r) is zero.
    func signature(for message: [UInt8]) -> [UInt8]? {
        let z = BigUInt(Data(SHA384.hash(data: message))) % Nonce.order
        let s = (Nonce.shared.inverse * ((z + rTimesKey) % Nonce.order)) % Nonce.order
        guard !s.isZero, !Nonce.shared.r.isZero else { return nil }
        return Nonce.bytes(Nonce.shared.r) + Nonce.bytes(s)
    }
}

/// The one nonce every `FixedNonceSigner` uses: k = SHA-384 of a fixed text, its inverse
/// modulo the P-384 group order n, and r, the x coordinate of k·G reduced modulo n.
private struct Nonce: Sendable {
    /// The order n of P-384's base point.
    static let order = BigUInt("ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973", radix: 16) ?? 0
    static let shared = Nonce()

    let r: BigUInt
    let inverse: BigUInt

    private init() {
        let k = BigUInt(Data(SHA384.hash(data: Array("StageSim ES384 nonce".utf8)))) % Self.order
        // k·G is the public point of the private scalar k; its raw form is x then y.
        let point = (try? P384.Signing.PrivateKey(rawRepresentation: Self.bytes(k)))?.publicKey.rawRepresentation ?? Data()
        r = BigUInt(point.prefix(48)) % Self.order
        inverse = k.inverse(Self.order) ?? 0
    }

    /// `value` as 48 big-endian bytes.
    static func bytes(_ value: BigUInt) -> [UInt8] {
        let serialized = Array(value.serialize())
        return Array(repeating: 0, count: max(0, 48 - serialized.count)) + serialized
    }
}
