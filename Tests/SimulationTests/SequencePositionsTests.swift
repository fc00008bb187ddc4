@testable import Simulation
import Testing

/// The event queue's position index against a Swift dictionary, under seeded random mixes of
/// insertions, updates, removals and look-ups over the dense, mostly rising keys a queue
/// numbers its entries with, across several growths of the table.
@Suite("Sequence positions")
struct SequencePositionsTests {
    @Test("every look-up agrees with a dictionary after random insertions, updates and removals", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func agreesWithDictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var table = SequencePositions(minimumCapacity: 4)
        var reference: [UInt64: Int] = [:]
        var nextKey: UInt64 = 0
        for _ in 0..<20_000 {
            switch random.below(4) {
            case 0, 1:
                let key = random.below(8) == 0 ? random.below(nextKey + 1) : nextKey
                nextKey += 1
                let position = random.below(100_000)
                table[key] = position
                reference[key] = position
            case 2:
                let key = random.below(nextKey + 1)
                table[key] = nil
                reference[key] = nil
            default:
                let key = random.below(nextKey + 1)
                #expect(table[key] == reference[key])
            }
        }
        #expect(table.count == reference.count)
        for key in 0...nextKey { #expect(table[key] == reference[key]) }
    }
}
