/// Pending events ordered by (due time, insertion sequence), as swift-nio's embedded loop does:
/// ties resolve by the order of scheduling, identically in every run (NET-1).
///
/// A sorted array, not a heap: the model checker must see and remove any pending entry, and
/// the queues of one world stay small (tens of entries), where a shifted array is fastest.
public struct EventQueue<Payload: Hashable & Sendable>: Hashable, Sendable {
    /// One scheduled event and the key that orders it.
    public struct Entry: Hashable, Sendable {
        public var due: VirtualTime
        public var sequence: UInt64
        public var payload: Payload
    }

    public private(set) var entries: [Entry] = []
    public private(set) var nextSequence: UInt64 = 0

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }
    public var first: Entry? { entries.first }

    /// Schedules `payload` at `due`; returns its sequence number, unique within this queue.
    @discardableResult
    public mutating func schedule(_ payload: Payload, at due: VirtualTime) -> UInt64 {
        let entry = Entry(due: due, sequence: nextSequence, payload: payload)
        nextSequence += 1
        entries.insert(entry, at: insertionIndex(for: entry))
        return entry.sequence
    }

    /// Removes and returns the entry with this sequence number, if it is still pending.
    @discardableResult
    public mutating func remove(sequence: UInt64) -> Entry? {
        guard let index = entries.firstIndex(where: { $0.sequence == sequence }) else { return nil }
        return entries.remove(at: index)
    }

    public func entry(sequence: UInt64) -> Entry? {
        entries.first(where: { $0.sequence == sequence })
    }

    /// Removes every entry whose payload matches; returns how many were removed.
    @discardableResult
    public mutating func removeAll(where shouldRemove: (Payload) -> Bool) -> Int {
        let before = entries.count
        entries.removeAll(where: { shouldRemove($0.payload) })
        return before - entries.count
    }

    private func insertionIndex(for entry: Entry) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let other = entries[middle]
            if (other.due, other.sequence) < (entry.due, entry.sequence) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
