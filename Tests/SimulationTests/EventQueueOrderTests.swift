import Simulation
import Testing

/// The queue against the sorted array it replaced: under a long random mix of scheduling and
/// removal (of the earliest entry, of any entry, by payload), both hold the same entries in the
/// same (due, sequence) order, so every run pops its events as before.
@Suite("Event queue order")
struct EventQueueOrderTests {
    /// The old queue: an array kept sorted by (due, sequence), shifted on every change.
    struct SortedArrayQueue {
        var entries: [(due: UInt64, sequence: UInt64, payload: Int)] = []
        var nextSequence: UInt64 = 0

        mutating func schedule(_ payload: Int, at due: UInt64) {
            let index = entries.firstIndex { ($0.due, $0.sequence) > (due, nextSequence) } ?? entries.count
            entries.insert((due, nextSequence, payload), at: index)
            nextSequence += 1
        }

        mutating func remove(sequence: UInt64) -> Bool {
            guard let index = entries.firstIndex(where: { $0.sequence == sequence }) else { return false }
            entries.remove(at: index)
            return true
        }
    }

    @Test("random schedules and removals keep the sorted array's order", arguments: [UInt64(1), 2, 3])
    func matchesSortedArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var queue = EventQueue<Int>()
        var reference = SortedArrayQueue()
        for step in 0..<5_000 {
            let choice = random.next() % 10
            if choice < 5 || queue.isEmpty {
                // Due times repeat often, so ties by sequence are exercised.
                let due = (queue.first?.due.nanoseconds ?? 0) + random.next() % 8
                queue.schedule(step, at: VirtualTime(nanoseconds: due))
                reference.schedule(step, at: due)
            } else if choice < 8 {
                let sequence = queue.first!.sequence
                let expected = reference.entries.first?.payload
                let removed = queue.remove(sequence: sequence)
                let referenceRemoved = reference.remove(sequence: sequence)
                #expect(removed?.payload == expected && referenceRemoved)
            } else if choice < 9 {
                let sequence = random.next() % (reference.nextSequence + 2)
                let removed = queue.remove(sequence: sequence) != nil
                let referenceRemoved = reference.remove(sequence: sequence)
                #expect(removed == referenceRemoved)
                #expect(queue.entry(sequence: sequence) == nil)
            } else {
                let modulus = Int(random.next() % 7) + 2
                let removed = queue.removeAll { $0 % modulus == 0 }
                let before = reference.entries.count
                reference.entries.removeAll { $0.payload % modulus == 0 }
                #expect(removed == before - reference.entries.count)
            }
            #expect(queue.nextSequence == reference.nextSequence)
        }
        #expect(queue.sortedEntries.map { [$0.due.nanoseconds, $0.sequence, UInt64($0.payload)] }
            == reference.entries.map { [$0.due, $0.sequence, UInt64($0.payload)] })
        for entry in reference.entries {
            #expect(queue.entry(sequence: entry.sequence)?.payload == entry.payload)
        }
    }

    @Test("queues with the same entries are equal and hash alike, whatever their history")
    func equalityIgnoresHistory() {
        var left = EventQueue<Int>()
        var right = EventQueue<Int>()
        left.schedule(1, at: VirtualTime(nanoseconds: 5))
        left.schedule(2, at: VirtualTime(nanoseconds: 3))
        right.schedule(1, at: VirtualTime(nanoseconds: 5))
        right.schedule(2, at: VirtualTime(nanoseconds: 3))
        left.remove(sequence: 1)
        right.removeAll { $0 == 2 }
        #expect(left == right)
        #expect(left.hashValue == right.hashValue)
        #expect(left.entry(sequence: 0)?.payload == 1 && right.entry(sequence: 1) == nil)
    }
}
