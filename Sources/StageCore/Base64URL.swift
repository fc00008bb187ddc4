/// Unpadded base64url (RFC 4648 §5) that decodes only canonical text: alphabet `A-Za-z0-9-_`,
/// no `=`, length not ≡ 1 (mod 4), unused trailing bits zero. Each byte string has one encoding (TOK-1).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's 6-bit value, or 0xFF outside the alphabet.
    private static let sextets: [UInt8] = (0...255).map { byte in
        UInt8(alphabet.firstIndex(of: UInt8(byte)) ?? 0xFF)
    }

    public static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = alphabet
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var accumulator: UInt32 = 0
        var bits: UInt32 = 0
        var index = 0
        while index < bytes.count {
            accumulator = (accumulator << 8) | UInt32(bytes[index])
            bits += 8
            while bits >= 6 {
                bits -= 6
                out.append(alphabet[Int((accumulator >> bits) & 63)])
            }
            accumulator &= (1 << bits) - 1
            index += 1
        }
        if bits > 0 { out.append(alphabet[Int((accumulator << (6 - bits)) & 63)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `text`; nil unless it is canonical.
    public static func decode(_ text: [UInt8]) -> [UInt8]? { decode(text, text.indices) }

    /// Decodes `text[range]`; nil unless it is canonical.
    static func decode(_ text: [UInt8], _ range: Range<Int>) -> [UInt8]? {
        guard range.count % 4 != 1 else { return nil }
        let sextets = sextets
        var out: [UInt8] = []
        out.reserveCapacity(range.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits: UInt32 = 0
        var index = range.lowerBound
        while index < range.upperBound {
            let value = sextets[Int(text[index])]
            guard value != 0xFF else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> bits))
            }
            accumulator &= (1 << bits) - 1
            index += 1
        }
        return accumulator == 0 ? out : nil
    }
}
