import Foundation
import CXXHash

/// A stable byte form of a model value: little-endian integers, length-prefixed UTF-8 strings,
/// a tag byte per enum case, counts before sequences. Two equal values encode to equal bytes
/// in every process; it feeds trace hashes and state fingerprints (NET-1).
public protocol CanonicalEncodable {
    func encode(to writer: inout CanonicalWriter)
}

/// The buffer a canonical encoding is written into. Its writes are `@inlinable`, so the
/// generic ones (`writeUnordered`, `write(_:)` of an encodable) are specialized in the modules
/// that call them, with no generic metadata or witness table looked up per write.
public struct CanonicalWriter: Sendable {
    /// The buffer: its first `count` bytes are what was written; the rest is room, so a
    /// fixed-width write is one store (no `append`, whose generic copy cost more than the
    /// encoding itself in the model checker's profile).
    @usableFromInline var storage: [UInt8]
    /// How many bytes of `storage` were written.
    @usableFromInline var count = 0

    /// The bytes written so far.
    @inlinable public var bytes: [UInt8] { Array(storage[..<count]) }

    /// XXH3-64 of the bytes written so far, read in place.
    @inlinable public func hash64(seed: UInt64 = 0) -> UInt64 {
        storage.withUnsafeBytes { XXH3.hash64(raw: UnsafeRawBufferPointer(rebasing: $0[..<count]), seed: seed) }
    }

    public init(reservingCapacity capacity: Int = 256) { storage = Array(repeating: 0, count: max(capacity, 16)) }

    /// Makes room for `byteCount` more bytes and counts them written; returns where they start.
    @inlinable mutating func claim(_ byteCount: Int) -> Int {
        let start = count
        if start + byteCount > storage.count { grow(toHold: start + byteCount) }
        count = start + byteCount
        return start
    }

    @usableFromInline mutating func grow(toHold byteCount: Int) {
        storage.append(contentsOf: repeatElement(0, count: max(byteCount, 2 * storage.count) - storage.count))
    }

    @inlinable public mutating func write(_ value: UInt64) {
        let start = claim(8)
        storage.withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: start, as: UInt64.self) }
    }
    @inlinable public mutating func write(_ value: UInt32) {
        let start = claim(4)
        storage.withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: start, as: UInt32.self) }
    }
    @inlinable public mutating func write(_ value: Int) { write(UInt64(bitPattern: Int64(value))) }
    @inlinable public mutating func write(_ value: UInt8) { storage[claim(1)] = value }
    @inlinable public mutating func write(_ value: Bool) { write(UInt8(value ? 1 : 0)) }
    @inlinable public mutating func write(_ value: Double) { write(value.bitPattern) }
    @inlinable public mutating func write(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            write(UInt32(utf8.count))
            writeBytes(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Copies `bytes` in after what was written.
    @inlinable mutating func writeBytes(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        let start = claim(bytes.count)
        storage.withUnsafeMutableBytes { UnsafeMutableRawBufferPointer(rebasing: $0[start..<start + bytes.count]).copyMemory(from: bytes) }
    }
    @inlinable public mutating func write<Value: CanonicalEncodable>(_ value: Value) { value.encode(to: &self) }
    @inlinable public mutating func write<Value: CanonicalEncodable>(_ value: Value?) {
        if let value {
            write(UInt8(1))
            value.encode(to: &self)
        } else {
            write(UInt8(0))
        }
    }
    @inlinable public mutating func write<Element: CanonicalEncodable>(_ values: [Element]) {
        write(UInt32(values.count))
        for value in values { value.encode(to: &self) }
    }
    @inlinable public mutating func write(_ values: [String]) {
        write(UInt32(values.count))
        for value in values { write(value) }
    }

    /// Bytes this writer's rules produced earlier for a value, written again as they are.
    @inlinable public mutating func writeEncoded(_ encoded: [UInt8]) { encoded.withUnsafeBytes { writeBytes($0) } }

    /// Encodings of immutable shared objects (a frame's content), by identity: each entry keeps
    /// its object, so no identity is reused while it is remembered (`writeOnce`).
    private var encodedObjects: [ObjectIdentifier: (object: any AnyObject & Sendable, bytes: [UInt8])] = [:]

    /// Writes what `encode` writes for `object`, an immutable value whose encoding depends on
    /// nothing else this writer is used with; the first time by `encode`, later as the bytes
    /// it wrote then (a frame in flight in every state the model checker keys). Under a
    /// renaming `encode` always runs, since the remembered bytes are written without one.
    public mutating func writeOnce(_ object: any AnyObject & Sendable, _ encode: (inout CanonicalWriter) -> Void) {
        guard !renames else { return encode(&self) }
        if let known = encodedObjects[ObjectIdentifier(object)] { return writeEncoded(known.bytes) }
        let start = count
        encode(&self)
        encodedObjects[ObjectIdentifier(object)] = (object, Array(storage[start..<count]))
    }

    /// Clears the buffer but keeps its storage, for encoders reused on a hot path.
    @inlinable public mutating func reset() { count = 0 }

    /// Symmetry reduction: participant names (ids, jtis) and client indices are written through
    /// these maps, so that a world and its image under a permutation of interchangeable
    /// participants encode alike. Empty maps write names and indices as they are.
    public var nameImages: [String: String] = [:]
    public var clientIndexImages: [Int] = []

    /// Whether names or client indices are written through a renaming: bytes encoded ahead of
    /// time without one (`writeEncoded`) stand for a value only when this is false.
    @inlinable public var renames: Bool { !nameImages.isEmpty || !clientIndexImages.isEmpty }

    /// A participant name (participant id, jti) under the renaming.
    @inlinable public mutating func writeName(_ name: String) {
        guard !nameImages.isEmpty, let image = nameImages[name] else { return write(name) }
        write(image)
    }

    /// Where client `index` stands under the renaming (its own index without one).
    @inlinable public func image(ofClient index: Int) -> Int {
        clientIndexImages.indices.contains(index) ? clientIndexImages[index] : index
    }

    /// A client index under the renaming.
    @inlinable public mutating func writeClientIndex(_ index: Int) { write(image(ofClient: index)) }

    /// Elements whose order carries no meaning, or derives from names: each is encoded alone
    /// (under the same renaming) and they are written sorted by their bytes, after a count.
    /// The elements are written in place and only their byte ranges are sorted; where each
    /// ends is kept on the writer's reused stack (nested sets push above their parent's), so a
    /// set costs no allocation.
    @inlinable public mutating func writeUnordered<Elements: Sequence>(_ elements: Elements, _ encode: (inout CanonicalWriter, Elements.Element) -> Void) {
        let countOffset = count
        write(UInt32(0))
        let start = count
        let base = elementEnds.count
        for element in elements {
            encode(&self, element)
            elementEnds.append(count)
        }
        let elementCount = elementEnds.count - base
        guard elementCount > 0 else { return }
        patchCount(UInt32(elementCount), at: countOffset)
        if elementCount > 1 { sortElements(from: start, ends: elementEnds[base...]) }
        elementEnds.removeLast(elementCount)
    }

    /// Where each element of the sets being written ends, innermost set last.
    @usableFromInline var elementEnds: [Int] = []

    /// Overwrites the count written as a placeholder at `offset`.
    @usableFromInline mutating func patchCount(_ elementCount: UInt32, at offset: Int) {
        storage.withUnsafeMutableBytes { $0.storeBytes(of: elementCount.littleEndian, toByteOffset: offset, as: UInt32.self) }
    }

    /// Reorders the elements written from `start` (element `i` ends at `ends[i]`) by their bytes;
    /// elements already in order (a name-sorted array, a set that happened to iterate sorted)
    /// are checked in place and left as they are.
    @usableFromInline mutating func sortElements(from start: Int, ends: ArraySlice<Int>) {
        guard !elementsInOrder(from: start, ends: ends) else { return }
        let ranges = ends.indices.map { (i: Int) -> Range<Int> in (i == ends.startIndex ? start : ends[i - 1])..<ends[i] }
        let written = Array(storage[start..<count])
        let sorted = ranges.sorted { left, right in
            written[(left.lowerBound - start)..<(left.upperBound - start)]
                .lexicographicallyPrecedes(written[(right.lowerBound - start)..<(right.upperBound - start)])
        }
        var position = start
        for range in sorted {
            for offset in range { storage[position] = written[offset - start]; position += 1 }
        }
    }

    /// Whether each element written from `start` precedes or equals the next, by its bytes.
    @usableFromInline func elementsInOrder(from start: Int, ends: ArraySlice<Int>) -> Bool {
        storage.withUnsafeBufferPointer { buffer in
            var previous = start..<ends[ends.startIndex]
            for end in ends.dropFirst() {
                let current = previous.upperBound..<end
                if buffer[current].lexicographicallyPrecedes(buffer[previous]) { return false }
                previous = current
            }
            return true
        }
    }
}

extension VirtualTime: CanonicalEncodable {
    public func encode(to writer: inout CanonicalWriter) { writer.write(nanoseconds) }
}

extension VirtualDuration: CanonicalEncodable {
    public func encode(to writer: inout CanonicalWriter) { writer.write(nanoseconds) }
}

/// XXH3 through the system's libxxhash: trace hashes and state fingerprints.
public enum XXH3 {
    public static func hash64<Bytes: ContiguousBytes>(_ bytes: Bytes, seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { buffer in
            XXH3_64bits_withSeed(buffer.baseAddress, buffer.count, seed)
        }
    }

    /// XXH3-64 of a byte array (the checker's keys), without going through `ContiguousBytes`.
    public static func hash64(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { buffer in
            XXH3_64bits_withSeed(buffer.baseAddress, buffer.count, seed)
        }
    }

    /// XXH3-64 of bytes in memory (a canonical writer's buffer, read in place).
    public static func hash64(raw buffer: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        XXH3_64bits_withSeed(buffer.baseAddress, buffer.count, seed)
    }

    /// XXH3-64 of a list of 64-bit words as they lie in memory (the checker combining its
    /// component and monitor hashes), with no copy into a byte buffer.
    public static func hash64(words: [UInt64], seed: UInt64 = 0) -> UInt64 {
        words.withUnsafeBytes { buffer in
            XXH3_64bits_withSeed(buffer.baseAddress, buffer.count, seed)
        }
    }

    public static func hash64<Value: CanonicalEncodable>(of value: Value) -> UInt64 {
        var writer = CanonicalWriter()
        value.encode(to: &writer)
        return writer.hash64()
    }

    /// The 64-bit hash as 16 lowercase hex digits, the form every report prints.
    public static func hex(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
