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

    /// A lost frame and its followers renumbered in place equal the same entries removed and
    /// scheduled again, the lost one first, the followers in (due, sequence) order; entries
    /// named as followers but no longer pending are passed over. With 3,000 entries scheduled
    /// first, the queue searches through its position index, kept through every move after.
    @Test("reschedule equals removing and scheduling again", arguments: [(UInt64(4), 0), (5, 0), (6, 3_000), (7, 3_000)])
    func rescheduleMatchesRemoveAndSchedule(seed: UInt64, prefill: Int) {
        var random = SplitMix64(seed: seed)
        var queue = EventQueue<Int>()
        var reference = SortedArrayQueue()
        for payload in 0..<prefill {
            let due = 1_000 + random.next() % 5_000
            queue.schedule(-payload, at: VirtualTime(nanoseconds: due))
            reference.schedule(-payload, at: due)
        }
        for round in 0..<400 {
            for payload in 0..<Int(random.next() % 6) {
                let due = (queue.first?.due.nanoseconds ?? 0) + random.next() % 20
                queue.schedule(round * 10 + payload, at: VirtualTime(nanoseconds: due))
                reference.schedule(round * 10 + payload, at: due)
            }
            if random.next() % 3 == 0, let head = queue.first {
                let removed = queue.remove(sequence: head.sequence)
                #expect(reference.remove(sequence: head.sequence) && removed != nil)
            }
            if random.next() % 4 == 0, let any = reference.entries.randomElement(using: &random) {
                #expect(queue.remove(sequence: any.sequence)?.payload == any.payload && reference.remove(sequence: any.sequence))
            }
            guard let lost = reference.entries.randomElement(using: &random) else { continue }
            let link = lost.payload % 3
            var followers = reference.entries.filter { $0.sequence > lost.sequence && $0.payload % 3 == link }.map(\.sequence).sorted()
            followers.append(reference.nextSequence + 7)
            let delay = random.next() % 30
            let renumbered = queue.reschedule(sequence: lost.sequence, followers: followers) { entry in
                entry.due = VirtualTime(nanoseconds: entry.due.nanoseconds + delay)
            }
            let moved = [lost] + reference.entries.filter { followers.contains($0.sequence) }
            #expect(renumbered == moved.count)
            for entry in moved {
                _ = reference.remove(sequence: entry.sequence)
                reference.schedule(entry.payload, at: entry.due + delay)
            }
            #expect(queue.nextSequence == reference.nextSequence)
        }
        #expect(queue.sortedEntries.map { [$0.due.nanoseconds, $0.sequence, UInt64(bitPattern: Int64($0.payload))] }
            == reference.entries.map { [$0.due, $0.sequence, UInt64(bitPattern: Int64($0.payload))] })
        for entry in reference.entries.prefix(50) {
            #expect(queue.entry(sequence: entry.sequence)?.payload == entry.payload)
        }
    }

    @Test("reschedule of an entry that is not pending changes nothing")
    func rescheduleOfMissingEntry() {
        var queue = EventQueue<Int>()
        queue.schedule(1, at: VirtualTime(nanoseconds: 5))
        let before = queue
        #expect(queue.reschedule(sequence: 9, followers: [0]) { $0.due = VirtualTime(nanoseconds: 50) } == 0)
        #expect(queue == before && queue.nextSequence == 1)
    }
}
