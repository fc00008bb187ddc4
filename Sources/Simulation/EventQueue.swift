/// Pending events ordered by (due time, insertion sequence), as swift-nio's embedded loop does:
/// ties resolve by the order of scheduling, identically in every run (NET-1).
///
/// A binary min-heap on the (due, sequence) key: the earliest entry is read in O(1) and leaves
/// in O(log n), a new one goes in in O(log n), however many are pending and wherever the new
/// one falls among them (a sorted queue shifted entries on every insertion in the middle, as
/// a lost transmission's rescheduling makes). Taking out any other entry finds it by a linear
/// scan, or in a large queue through its position index; the simulator only ever takes the
/// earliest, removes many at once (a closed connection) with `removeAll`, one pass for all of
/// them, and renumbers a lost frame and its followers with `reschedule`.
///
/// `entries` lists the pending entries in heap order (no particular order, but the same in
/// every run); `sortedEntries` lists them by (due, sequence), as they will fire. The heap's
/// operations are inlinable, so the world's queue runs them specialized to its payload.
public struct EventQueue<Payload: Hashable & Sendable>: Hashable, Sendable {
    /// One scheduled event and the key that orders it.
    public struct Entry: Hashable, Sendable {
        public var due: VirtualTime
        public var sequence: UInt64
        public var payload: Payload

        @usableFromInline init(due: VirtualTime, sequence: UInt64, payload: Payload) {
            self.due = due
            self.sequence = sequence
            self.payload = payload
        }

        /// Whether this entry fires before `other`: earlier due time, ties by sequence.
        @inlinable public func precedes(_ other: Entry) -> Bool {
            due != other.due ? due < other.due : sequence < other.sequence
        }
    }

    /// Every pending entry, as a binary heap: no entry precedes its parent.
    @usableFromInline var heap: [Entry] = []
    @usableFromInline var sequenceCounter: UInt64 = 0
    /// Each entry's heap position by sequence number, kept only once the queue has been
    /// searched while holding `indexedCount` entries or more (a thousand participants' frames
    /// in flight): from then on a search is a lookup, and every move in the heap updates it.
    /// Small queues (the model checker's, a small stage's) never pay for it: a scan of a few
    /// hundred sequence numbers is cheaper than keeping it.
    @usableFromInline var positions: [UInt64: Int]?

    /// The queue size from which a search builds the position index.
    @usableFromInline static var indexedCount: Int { 2_048 }

    /// Every pending entry, in heap order.
    @inlinable public var entries: [Entry] { heap }
    /// The sequence number the next scheduled entry gets.
    @inlinable public var nextSequence: UInt64 { sequenceCounter }

    public init() {}

    @inlinable public var isEmpty: Bool { heap.isEmpty }
    @inlinable public var count: Int { heap.count }
    /// The entry that fires next: earliest due, ties by sequence.
    @inlinable public var first: Entry? { heap.first }

    /// Every pending entry in firing order, by (due, sequence); O(n log n).
    public var sortedEntries: [Entry] { heap.sorted { $0.precedes($1) } }

    /// Schedules `payload` at `due`; returns its sequence number, unique within this queue.
    @inlinable @discardableResult
    public mutating func schedule(_ payload: Payload, at due: VirtualTime) -> UInt64 {
        let sequence = sequenceCounter
        sequenceCounter += 1
        heap.append(Entry(due: due, sequence: sequence, payload: payload))
        positions?[sequence] = heap.count - 1
        siftUp(from: heap.count - 1)
        return sequence
    }

    /// Removes and returns the entry with this sequence number, if it is still pending: the
    /// earliest in O(log n), any other in O(n).
    @inlinable @discardableResult
    public mutating func remove(sequence: UInt64) -> Entry? {
        guard let position = position(of: sequence) else { return nil }
        return remove(at: position)
    }

    /// The pending entry with this sequence number, if any. Inlinable, so that a caller's
    /// module scans its own specialization, not generic code that looks up metadata per entry.
    @inlinable public func entry(sequence: UInt64) -> Entry? {
        position(of: sequence).map { heap[$0] }
    }

    /// Removes every entry whose payload matches, in one pass; returns how many were removed.
    @inlinable @discardableResult
    public mutating func removeAll(where shouldRemove: (Payload) -> Bool) -> Int {
        removeEntries { shouldRemove($0.payload) }
    }

    /// Removes every entry that matches, in one pass over the heap and one rebuild of it, O(n)
    /// however many go; returns how many were removed.
    @inlinable @discardableResult
    public mutating func removeEntries(where shouldRemove: (Entry) -> Bool) -> Int {
        let before = heap.count
        heap.removeAll(where: shouldRemove)
        guard heap.count != before else { return 0 }
        heapify()
        if positions != nil { rebuildPositions() }
        return before - heap.count
    }

    /// Gives the entry numbered `sequence` and then the pending entries among `followers`
    /// (sequence numbers in ascending order), in (due, sequence) order, a fresh sequence number
    /// each and the due time `update` sets (it may change the payload too), in place: the queue
    /// is as if they had been removed and scheduled again in that order, but no other entry
    /// moves and nothing is rebuilt (a lost frame and the frames held behind it, NET-2). The
    /// entries are found by `locate`, copying no payload.
    /// A later key (the usual case: a fresh sequence number and a due time no earlier) sinks
    /// from its place, the deepest first; any earlier due time rebuilds the heap. Returns how
    /// many entries were renumbered: none when `sequence` is not pending.
    @inlinable @discardableResult
    public mutating func reschedule(sequence: UInt64, followers: [UInt64], update: (inout Entry) -> Void) -> Int {
        let (found, followerPositions) = locate(sequence, and: followers)
        guard let lost = found else { return 0 }
        let moved = [lost] + followerPositions.sorted { heap[$0].precedes(heap[$1]) }
        var later = true
        for position in moved {
            let before = heap[position]
            update(&heap[position])
            heap[position].sequence = sequenceCounter
            sequenceCounter += 1
            later = later && !heap[position].precedes(before)
            positions?[before.sequence] = nil
            positions?[heap[position].sequence] = position
        }
        if later {
            for position in moved.sorted(by: >) { siftDown(from: position) }
        } else {
            heapify()
        }
        return moved.count
    }

    /// The heap positions of the entry numbered `sequence` and of the pending entries among
    /// `others` (ascending): looked up in the position index when the queue is large (built
    /// here the first time), else found in one pass over the sequence numbers, read in place.
    @inlinable mutating func locate(_ sequence: UInt64, and others: [UInt64]) -> (Int?, [Int]) {
        if positions == nil && heap.count >= Self.indexedCount { rebuildPositions() }
        if let positions { return (positions[sequence], others.compactMap { positions[$0] }) }
        let lowest = min(sequence, others.first ?? sequence)
        let highest = max(sequence, others.last ?? sequence)
        var found: Int?
        var otherPositions: [Int] = []
        otherPositions.reserveCapacity(others.count)
        heap.withUnsafeBufferPointer { entries in
            for position in entries.indices {
                let candidate = entries[position].sequence
                guard candidate >= lowest, candidate <= highest else { continue }
                if candidate == sequence {
                    found = position
                } else if Self.sortedContains(others, candidate) {
                    otherPositions.append(position)
                }
            }
        }
        return (found, otherPositions)
    }

    /// Whether the ascending array `sorted` holds `value`.
    @inlinable static func sortedContains(_ sorted: [UInt64], _ value: UInt64) -> Bool {
        let position = insertionPoint(of: value, inAscending: sorted)
        return position < sorted.count && sorted[position] == value
    }

    /// The first position in the ascending array `sorted` whose value is not below `value`
    /// (its count when there is none): a binary search.
    @inlinable public static func insertionPoint(of value: UInt64, inAscending sorted: [UInt64]) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Equal queues hold the same entries and would number the next alike, whatever order
    /// their histories left the heap in.
    public static func == (left: EventQueue, right: EventQueue) -> Bool {
        left.nextSequence == right.nextSequence && left.heap.count == right.heap.count
            && left.sortedEntries == right.sortedEntries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(nextSequence)
        hasher.combine(sortedEntries)
    }

    /// Where the pending entry with this sequence number is in the heap, if it is pending.
    /// Without the index, the sequence numbers are read in place from the heap's end back: an
    /// entry sifts up only past later ones, so the newest entries (those a step has just
    /// scheduled, the ones most often looked up) are mostly near the end.
    @inlinable func position(of sequence: UInt64) -> Int? {
        if heap.first?.sequence == sequence { return 0 }
        if let positions { return positions[sequence] }
        return heap.withUnsafeBufferPointer { entries in
            var position = entries.count
            while position > 0 {
                position -= 1
                if entries[position].sequence == sequence { return position }
            }
            return nil
        }
    }

    /// The position index made anew from the heap.
    @inlinable mutating func rebuildPositions() {
        var index = [UInt64: Int](minimumCapacity: heap.count)
        for position in heap.indices { index[heap[position].sequence] = position }
        positions = index
    }

    /// Swaps two heap positions, keeping the position index (if any) in step. The entries
    /// trade places in memory: no payload is copied.
    @inlinable mutating func swapEntries(_ first: Int, _ second: Int) {
        heap.withUnsafeMutableBufferPointer { $0.swapAt(first, second) }
        guard positions != nil else { return }
        positions?[heap[first].sequence] = first
        positions?[heap[second].sequence] = second
    }

    /// Takes out the entry at heap position `position`, moving the last entry into its place.
    @inlinable mutating func remove(at position: Int) -> Entry {
        let last = heap.count - 1
        if position != last { swapEntries(position, last) }
        let removed = heap.removeLast()
        positions?[removed.sequence] = nil
        if position < heap.count {
            siftDown(from: siftUp(from: position))
        }
        return removed
    }

    /// Moves the entry at `position` up while it precedes its parent; returns where it ends.
    @inlinable @discardableResult
    mutating func siftUp(from position: Int) -> Int {
        withHeap { entries, positions in Self.siftUp(entries, from: position, positions: &positions) }
    }

    /// Moves the entry at `position` down while a child precedes it.
    @inlinable mutating func siftDown(from position: Int) {
        withHeap { entries, positions in Self.siftDown(entries, from: position, positions: &positions) }
    }

    /// Runs `body` on the heap's storage and the position index, both mutable at once.
    @inlinable mutating func withHeap<Result>(
        _ body: (UnsafeMutableBufferPointer<Entry>, inout [UInt64: Int]?) -> Result
    ) -> Result {
        var index: [UInt64: Int]?
        swap(&index, &positions)
        defer { swap(&index, &positions) }
        return heap.withUnsafeMutableBufferPointer { body($0, &index) }
    }

    /// `siftUp` on the heap's storage: the entry is lifted out and each parent it precedes
    /// moves down into the hole, one move per level and no payload copied; where the hole
    /// stops, the entry goes. The same heap as swapping it up level by level.
    @inlinable static func siftUp(
        _ entries: UnsafeMutableBufferPointer<Entry>, from position: Int, positions: inout [UInt64: Int]?
    ) -> Int {
        let base = entries.baseAddress!
        let moving = (base + position).move()
        var hole = position
        while hole > 0 {
            let parent = (hole - 1) / 2
            guard moving.precedes(base[parent]) else { break }
            (base + hole).moveInitialize(from: base + parent, count: 1)
            positions?[base[hole].sequence] = hole
            hole = parent
        }
        (base + hole).initialize(to: moving)
        positions?[moving.sequence] = hole
        return hole
    }

    /// `siftDown` on the heap's storage: the entry is lifted out and the earlier child moves up
    /// into the hole while it precedes the entry; the same heap as swapping it down.
    @inlinable static func siftDown(
        _ entries: UnsafeMutableBufferPointer<Entry>, from position: Int, positions: inout [UInt64: Int]?
    ) {
        let base = entries.baseAddress!
        let moving = (base + position).move()
        var hole = position
        while true {
            let left = 2 * hole + 1
            guard left < entries.count else { break }
            let right = left + 1
            let earlier = right < entries.count && base[right].precedes(base[left]) ? right : left
            guard base[earlier].precedes(moving) else { break }
            (base + hole).moveInitialize(from: base + earlier, count: 1)
            positions?[base[hole].sequence] = hole
            hole = earlier
        }
        (base + hole).initialize(to: moving)
        positions?[moving.sequence] = hole
    }

    /// Restores the heap order of `entries` after a bulk change, in O(n).
    @inlinable mutating func heapify() {
        for position in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
            siftDown(from: position)
        }
    }
}
