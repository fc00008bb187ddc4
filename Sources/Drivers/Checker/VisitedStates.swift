/// The model checker's visited set: 64-bit state fingerprints in one open-addressing table
/// (linear probing, grown at half full), 8 bytes a state and no per-state allocation. In exact
/// mode it keeps each state's full canonical encoding instead, for small models where a
/// fingerprint collision must be ruled out rather than estimated.
public struct VisitedStates: Sendable {
    private var slots: [UInt64]
    private var exactStates: Set<[UInt8]>?
    public private(set) var count = 0

    public init(exact: Bool, capacity: Int = 1 << 16) {
        slots = exact ? [] : [UInt64](repeating: 0, count: Self.roundedCapacity(capacity))
        exactStates = exact ? [] : nil
    }

    /// The bytes the set holds: its table, or each whole state with its length and hash slot.
    public var storedBytes: Int {
        guard let exactStates else { return slots.count * MemoryLayout<UInt64>.stride }
        return exactStates.reduce(0) { $0 + $1.count + MemoryLayout<[UInt8]>.stride * 2 }
    }

    /// Whether states are kept whole rather than as fingerprints.
    public var isExact: Bool { exactStates != nil }

    public func contains(_ key: StateKey) -> Bool {
        if let exactStates { return exactStates.contains(key.bytes) }
        let fingerprint = Self.stored(key.fingerprint)
        var index = Int(truncatingIfNeeded: fingerprint) & (slots.count - 1)
        while slots[index] != 0 {
            if slots[index] == fingerprint { return true }
            index = (index + 1) & (slots.count - 1)
        }
        return false
    }

    /// Adds `key`; false when it was already there.
    public mutating func insert(_ key: StateKey) -> Bool {
        if exactStates != nil {
            guard exactStates?.insert(key.bytes).inserted == true else { return false }
            count += 1
            return true
        }
        if (count + 1) * 2 > slots.count { grow() }
        guard place(Self.stored(key.fingerprint)) else { return false }
        count += 1
        return true
    }

    private mutating func place(_ fingerprint: UInt64) -> Bool {
        var index = Int(truncatingIfNeeded: fingerprint) & (slots.count - 1)
        while slots[index] != 0 {
            if slots[index] == fingerprint { return false }
            index = (index + 1) & (slots.count - 1)
        }
        slots[index] = fingerprint
        return true
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for fingerprint in old where fingerprint != 0 { _ = place(fingerprint) }
    }

    /// 0 marks an empty slot, so a zero fingerprint is stored as 1.
    private static func stored(_ fingerprint: UInt64) -> UInt64 { fingerprint == 0 ? 1 : fingerprint }

    private static func roundedCapacity(_ capacity: Int) -> Int {
        var size = 16
        while size < capacity { size <<= 1 }
        return size
    }

    /// TLC's optimistic estimate of the chance that two distinct states shared a fingerprint:
    /// distinct states x (states generated - distinct states) / 2^64. Zero in exact mode.
    public func collisionProbability(generated: Int) -> Double {
        guard !isExact else { return 0 }
        return Double(count) * Double(max(generated - count, 0)) / 18_446_744_073_709_551_616.0
    }
}

/// How one explored state is known to the visited set: its fingerprint, and in exact mode its
/// whole canonical encoding.
public struct StateKey: Hashable, Sendable {
    public var fingerprint: UInt64
    public var bytes: [UInt8]
}
