import DequeModule

/// Pending events ordered by (due time, insertion sequence), as swift-nio's embedded loop does:
/// ties resolve by the order of scheduling, identically in every run (NET-1).
///
/// A sorted double-ended queue with an index from sequence number to due time, so that the
/// model checker can see every entry in order and remove any of them, and the simulator's
/// common case stays cheap: the earliest entry leaves in O(1), any other entry is found by
/// binary search on its (due, sequence) key in O(log n) and leaves by shifting the shorter
/// side, and a new entry (usually due after most others) goes in by binary search, shifting
/// the shorter side. (A sorted array shifted every entry on each removal of the earliest.)
public struct EventQueue<Payload: Hashable & Sendable>: Hashable, Sendable {
    /// One scheduled event and the key that orders it.
    public struct Entry: Hashable, Sendable {
        public var due: VirtualTime
        public var sequence: UInt64
        public var payload: Payload
    }

    /// Every pending entry, sorted by (due, sequence).
    public private(set) var entries: Deque<Entry> = []
    public private(set) var nextSequence: UInt64 = 0
    /// The due time of each pending entry, by sequence number (derived from `entries`).
    private var dueBySequence: [UInt64: VirtualTime] = [:]

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }
    public var first: Entry? { entries.first }

    /// Schedules `payload` at `due`; returns its sequence number, unique within this queue.
    @discardableResult
    public mutating func schedule(_ payload: Payload, at due: VirtualTime) -> UInt64 {
        let entry = Entry(due: due, sequence: nextSequence, payload: payload)
        nextSequence += 1
        dueBySequence[entry.sequence] = due
        // Its sequence number is the largest yet: it goes last unless an entry is due later.
        if entries.isEmpty || entries[entries.count - 1].due <= due {
            entries.append(entry)
        } else {
            entries.insert(entry, at: index(ofKey: due, entry.sequence))
        }
        return entry.sequence
    }

    /// Removes and returns the entry with this sequence number, if it is still pending.
    @discardableResult
    public mutating func remove(sequence: UInt64) -> Entry? {
        if entries.first?.sequence == sequence {
            dueBySequence[sequence] = nil
            return entries.removeFirst()
        }
        guard let position = position(of: sequence) else { return nil }
        dueBySequence[sequence] = nil
        return entries.remove(at: position)
    }

    public func entry(sequence: UInt64) -> Entry? {
        position(of: sequence).map { entries[$0] }
    }

    /// Removes every entry whose payload matches; returns how many were removed.
    @discardableResult
    public mutating func removeAll(where shouldRemove: (Payload) -> Bool) -> Int {
        let before = entries.count
        entries.removeAll(where: { shouldRemove($0.payload) })
        guard entries.count != before else { return 0 }
        dueBySequence = Dictionary(uniqueKeysWithValues: entries.lazy.map { ($0.sequence, $0.due) })
        return before - entries.count
    }

    /// Equal queues hold the same entries in the same order and would number the next alike
    /// (the index is derived from the entries).
    public static func == (left: EventQueue, right: EventQueue) -> Bool {
        left.nextSequence == right.nextSequence && left.entries == right.entries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(nextSequence)
        hasher.combine(entries)
    }

    /// Where the pending entry with this sequence number is in `entries`, if it is pending.
    private func position(of sequence: UInt64) -> Int? {
        guard let due = dueBySequence[sequence] else { return nil }
        return index(ofKey: due, sequence)
    }

    /// The first position whose entry's key is not below (due, sequence).
    private func index(ofKey due: VirtualTime, _ sequence: UInt64) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if (entries[middle].due, entries[middle].sequence) < (due, sequence) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
