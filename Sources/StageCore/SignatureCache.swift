/// Verdicts of ES384 signature checks already made in this process (TOK-1): a signature check
/// is a pure function of (public key, message, signature), so a service that sees the same token
/// again (a reconnect, a retried join) need not redo the elliptic-curve arithmetic. Signatures
/// this process made itself are recorded as valid when made.
enum SignatureCache {
    struct Entry: Hashable, Sendable {
        var publicKey: [UInt8]
        var message: [UInt8]
        var signature: [UInt8]
    }

    static let verdicts = MemoCache<Entry, Bool>(capacity: 50_000)

    static func verdict(_ entry: Entry, check: () -> Bool) -> Bool { verdicts.value(for: entry, compute: check) }

    static func remember(_ entry: Entry, _ valid: Bool) { verdicts.remember(valid, for: entry) }
}
