/// Every secret's first 8 bytes, so that one pass over a frame finds every secret it may hold
/// (SIG-2, TOK-2; `SecretMonitor`): at each offset the frame's next 8 bytes are tested
/// against a 65,536-bit filter of the prefixes (a multiply-shift hash), and only a hit is
/// looked up. A frame costs one pass whatever the number of secrets: at a thousand
/// participants a search per secret made the monitor a tenth of the run.
struct SecretPrefixes: Sendable {
    private var filter = [UInt64](repeating: 0, count: 1024)
    /// Per prefix, the positions of the secrets that start with it, in insertion order.
    private var positions: [UInt64: [Int]] = [:]

    /// Secrets are at least 8 bytes long (`SecretMonitor`).
    static let width = 8

    /// Notes the secret at `position` (of the monitor's list) with these bytes.
    mutating func insert(_ bytes: [UInt8], at position: Int) {
        guard bytes.count >= Self.width else { return }
        let prefix = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        let bit = Self.bit(prefix)
        filter[bit >> 6] |= 1 << UInt64(bit & 63)
        positions[prefix, default: []].append(position)
    }

    /// Calls `body` with each secret position and the frame offset where its prefix occurs.
    func forEachCandidate(in frame: UnsafeBufferPointer<UInt8>, _ body: (_ position: Int, _ offset: Int) -> Void) {
        guard let base = frame.baseAddress, frame.count >= Self.width else { return }
        let raw = UnsafeRawPointer(base)
        for offset in 0...(frame.count - Self.width) {
            let window = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let bit = Self.bit(window)
            guard filter[bit >> 6] & (1 << UInt64(bit & 63)) != 0, let found = positions[window] else { continue }
            for position in found { body(position, offset) }
        }
    }

    private static func bit(_ prefix: UInt64) -> Int { Int(truncatingIfNeeded: (prefix &* 0x9E37_79B9_7F4A_7C15) >> 48) }
}
