/// Heap positions by sequence number: `EventQueue`'s index of a large queue, written at every
/// move of a sift. An open-addressing table, at most half full, over a power-of-two number of
/// slots: sequence numbers are dense integers, so a multiplicative (Fibonacci) hash spreads
/// them, and linear probing finds a key within a slot or two; a removal shifts the keys probed
/// past it back (no tombstones). A Swift dictionary spent most of each update hashing its key
/// (a tenth of a thousand-participant run).
@usableFromInline struct SequencePositions: Sendable {
    /// No sequence number reaches it: a queue numbers one entry per event.
    @usableFromInline static var emptySlot: UInt64 { .max }

    @usableFromInline var keys: [UInt64]
    @usableFromInline var positions: [Int]
    @usableFromInline var count = 0
    /// 64 minus the base-2 logarithm of the slot count: the hash's top bits pick the slot.
    @usableFromInline var hashShift: UInt64

    @usableFromInline init(minimumCapacity: Int) {
        var slots = 16
        while slots < 2 * minimumCapacity { slots *= 2 }
        keys = Array(repeating: Self.emptySlot, count: slots)
        positions = Array(repeating: 0, count: slots)
        hashShift = UInt64(64 - slots.trailingZeroBitCount)
    }

    @inlinable var slotMask: Int { keys.count - 1 }

    @inlinable func home(of sequence: UInt64) -> Int {
        Int(truncatingIfNeeded: (sequence &* 0x9E37_79B9_7F4A_7C15) >> hashShift)
    }

    /// The position of `sequence`, nil when it is not held; setting nil removes it.
    @inlinable subscript(sequence: UInt64) -> Int? {
        get {
            var slot = home(of: sequence)
            while true {
                let key = keys[slot]
                if key == sequence { return positions[slot] }
                if key == Self.emptySlot { return nil }
                slot = (slot + 1) & slotMask
            }
        }
        set {
            if let newValue { insert(sequence, at: newValue) } else { remove(sequence) }
        }
    }

    @inlinable mutating func insert(_ sequence: UInt64, at position: Int) {
        if 2 * (count + 1) > keys.count { grow() }
        var slot = home(of: sequence)
        while true {
            let key = keys[slot]
            if key == sequence {
                positions[slot] = position
                return
            }
            if key == Self.emptySlot {
                keys[slot] = sequence
                positions[slot] = position
                count += 1
                return
            }
            slot = (slot + 1) & slotMask
        }
    }

    /// Removes `sequence`, then moves each key probed past its slot back into the gap when
    /// its home allows, so that every key stays reachable from its home without a gap.
    @inlinable mutating func remove(_ sequence: UInt64) {
        var slot = home(of: sequence)
        while keys[slot] != sequence {
            if keys[slot] == Self.emptySlot { return }
            slot = (slot + 1) & slotMask
        }
        var gap = slot
        var next = slot
        while true {
            next = (next + 1) & slotMask
            let key = keys[next]
            if key == Self.emptySlot { break }
            if (next - home(of: key)) & slotMask >= (next - gap) & slotMask {
                keys[gap] = key
                positions[gap] = positions[next]
                gap = next
            }
        }
        keys[gap] = Self.emptySlot
        count -= 1
    }

    @usableFromInline mutating func grow() {
        var larger = SequencePositions(minimumCapacity: keys.count)
        for slot in keys.indices where keys[slot] != Self.emptySlot { larger.insert(keys[slot], at: positions[slot]) }
        self = larger
    }
}
