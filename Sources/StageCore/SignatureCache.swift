import Synchronization

/// Verdicts of ES384 signature checks already made in this process (TOK-1): a signature check
/// is a pure function of (public key, message, signature), so a service that sees the same token
/// again (a reconnect, a retried join) need not redo the elliptic-curve arithmetic. Signatures
/// this process made itself are recorded as valid when made. Bounded: it starts afresh once it
/// holds `capacity` verdicts.
enum SignatureCache {
    struct Entry: Hashable {
        var publicKey: [UInt8]
        var message: [UInt8]
        var signature: [UInt8]
    }

    static let capacity = 50_000
    private static let verdicts = Mutex<[Entry: Bool]>([:])

    /// The cached verdict, or `check()`'s, which is then remembered.
    static func verdict(_ entry: Entry, check: () -> Bool) -> Bool {
        if let known = verdicts.withLock({ $0[entry] }) { return known }
        let valid = check()
        remember(entry, valid)
        return valid
    }

    static func remember(_ entry: Entry, _ valid: Bool) {
        verdicts.withLock { cache in
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[entry] = valid
        }
    }
}
