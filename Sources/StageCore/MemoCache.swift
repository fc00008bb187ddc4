import Synchronization

/// A process-wide memo of a pure function's results, safe to share between threads: for work
/// whose answer depends only on its input (signature checks, frame encoding and decoding).
/// Bounded: it starts afresh once it holds `capacity` answers.
public final class MemoCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let capacity: Int
    private let answers = Mutex<[Key: Value]>([:])

    public init(capacity: Int) { self.capacity = capacity }

    /// The remembered answer for `key`, or `compute()`'s, which is then remembered.
    public func value(for key: Key, compute: () -> Value) -> Value {
        if let known = answers.withLock({ $0[key] }) { return known }
        let value = compute()
        remember(value, for: key)
        return value
    }

    public func remember(_ value: Value, for key: Key) {
        answers.withLock { cache in
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = value
        }
    }
}
