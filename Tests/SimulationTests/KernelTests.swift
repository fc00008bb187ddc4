import Testing
@testable import Simulation

@Suite("Virtual time")
struct VirtualTimeTests {
    @Test("durations parse in every unit and print in the shortest exact unit")
    func parsing() {
        #expect(VirtualDuration(parsing: "250ms") == .milliseconds(250))
        #expect(VirtualDuration(parsing: "1.5s") == .milliseconds(1500))
        #expect(VirtualDuration(parsing: "7ns")?.nanoseconds == 7)
        #expect(VirtualDuration(parsing: "100us")?.nanoseconds == 100_000)
        #expect(VirtualDuration(parsing: "ms") == nil)
        #expect(VirtualDuration(parsing: "-1s") == nil)
        #expect(VirtualDuration(parsing: "5 minutes") == nil)
        #expect(VirtualDuration.milliseconds(1500).description == "1500ms")
        #expect(VirtualDuration.seconds(2).description == "2s")
        #expect(VirtualTime.milliseconds(1250).description == "1.250s")
    }
}

@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("matches the reference SplitMix64 output for seed 0")
    func referenceValues() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("named streams are independent of each other and of creation order")
    func streams() {
        var network = SplitMix64.stream(seed: 42, name: "network")
        var faults = SplitMix64.stream(seed: 42, name: "faults")
        var networkAgain = SplitMix64.stream(seed: 42, name: "network")
        let first = (0..<4).map { _ in network.next() }
        _ = (0..<100).map { _ in faults.next() }
        #expect((0..<4).map { _ in networkAgain.next() } == first)
        #expect(SplitMix64.stream(seed: 43, name: "network") != SplitMix64.stream(seed: 42, name: "network"))
    }

    @Test("bounded draws stay in range and chance honours its extremes")
    func bounded() {
        var generator = SplitMix64(seed: 9)
        for _ in 0..<1000 {
            let draw = generator.upTo(6)
            #expect(draw <= 6)
        }
        for _ in 0..<100 {
            let never = generator.chance(0)
            let always = generator.chance(1)
            #expect(!never && always)
        }
    }
}

@Suite("Event queue")
struct EventQueueTests {
    @Test("orders by due time, then by insertion sequence")
    func ordering() {
        var queue = EventQueue<String>()
        queue.schedule("late", at: .milliseconds(20))
        queue.schedule("tie-first", at: .milliseconds(10))
        queue.schedule("early", at: .milliseconds(5))
        queue.schedule("tie-second", at: .milliseconds(10))
        #expect(queue.sortedEntries.map(\.payload) == ["early", "tie-first", "tie-second", "late"])
    }

    @Test("removes any entry by sequence")
    func removal() {
        var queue = EventQueue<Int>()
        let sequences = (0..<5).map { queue.schedule($0, at: .milliseconds(UInt64(10 - $0))) }
        #expect(queue.remove(sequence: sequences[2])?.payload == 2)
        #expect(queue.remove(sequence: sequences[2]) == nil)
        #expect(queue.sortedEntries.map(\.payload) == [4, 3, 1, 0])
    }
}

@Suite("Canonical encoding and XXH3")
struct HashTests {
    @Test("XXH3-64 of the empty input is the reference value")
    func emptyInput() {
        #expect(XXH3.hash64([UInt8]()) == 0x2D06_8005_38D3_94C2)
        #expect(XXH3.hex(0xAB) == "00000000000000ab")
    }

    @Test("the writer is little-endian and length-prefixes strings")
    func writer() {
        var writer = CanonicalWriter()
        writer.write(UInt32(1))
        writer.write("hé")
        #expect(writer.bytes == [1, 0, 0, 0, 3, 0, 0, 0, 0x68, 0xC3, 0xA9])
    }

    /// The writer keeps room past what it wrote; whatever it grows through, resets or sorts,
    /// its bytes are exactly those of the writes (built here independently, byte by byte),
    /// and its in-place hash is the hash of those bytes.
    @Test("property: drawn writes through growth and reset give exactly their bytes (fixed seeds)", arguments: [UInt64(1), 2, 3, 4])
    func writerBuffer(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var writer = CanonicalWriter(reservingCapacity: 1)
        for _ in 0..<50 {
            writer.reset()
            var expected: [UInt8] = []
            for _ in 0..<Int(random.next() % 40) {
                let value = random.next()
                switch value % 5 {
                case 0:
                    writer.write(value)
                    expected += (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
                case 1:
                    writer.write(UInt32(truncatingIfNeeded: value))
                    expected += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
                case 2:
                    writer.write(UInt8(truncatingIfNeeded: value))
                    expected.append(UInt8(truncatingIfNeeded: value))
                case 3:
                    let text = String(repeating: "é", count: Int(value % 300))
                    writer.write(text)
                    expected += (0..<4).map { UInt8(truncatingIfNeeded: text.utf8.count >> (8 * $0)) } + Array(text.utf8)
                default:
                    let bytes = (0..<Int(value % 20)).map { UInt8(truncatingIfNeeded: value >> $0) }
                    writer.writeEncoded(bytes)
                    expected += bytes
                }
            }
            #expect(writer.bytes == expected)
            #expect(writer.hash64(seed: 7) == XXH3.hash64(expected, seed: 7))
        }
    }

    @Test("unordered elements are counted and sorted by their bytes, nested sets included")
    func unorderedWrites() {
        var writer = CanonicalWriter(reservingCapacity: 1)
        writer.write(UInt8(9))
        writer.writeUnordered([[3, 1], [2]] as [[UInt8]]) { writer, inner in
            writer.writeUnordered(inner) { writer, byte in writer.write(byte) }
        }
        #expect(writer.bytes == [9, 2, 0, 0, 0, 1, 0, 0, 0, 2, 2, 0, 0, 0, 1, 3])
    }
}
