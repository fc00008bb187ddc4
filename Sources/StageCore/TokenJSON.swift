/// A JSON value as the token reader sees it. Numbers keep their literal text, so integer claims
/// can refuse fractions, exponents, signs and overflow instead of rounding them (TOK-2).
indirect enum TokenJSON: Hashable {
    case object([String: TokenJSON])
    case array([TokenJSON])
    case string(String)
    case number(String)
    case bool(Bool)
    case null
}

/// A strict RFC 8259 reader for token segments: UTF-8 only, no duplicate object keys, no lone
/// surrogates, nesting at most `maxDepth` deep. Any deviation gives nil, never a trap (TOK-1).
struct TokenJSONReader {
    static let maxDepth = 32
    private let bytes: [UInt8]
    private var index = 0

    static func parse(_ bytes: [UInt8]) -> TokenJSON? {
        guard Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes else { return nil }
        var reader = TokenJSONReader(bytes: bytes)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipWhitespace()
        return reader.index == bytes.count ? value : nil
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func consume(_ character: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func value(depth: Int) -> TokenJSON? {
        skipWhitespace()
        guard depth < Self.maxDepth, let byte = peek else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(TokenJSON.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func literal(_ word: String, _ value: TokenJSON) -> TokenJSON? {
        guard bytes[index...].starts(with: word.utf8) else { return nil }
        index += word.utf8.count
        return value
    }

    private mutating func object(depth: Int) -> TokenJSON? {
        index += 1
        var members: [String: TokenJSON] = [:]
        skipWhitespace()
        if consume("}") { return .object(members) }
        repeat {
            skipWhitespace()
            guard peek == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard consume(":"), let value = value(depth: depth + 1),
                  members.updateValue(value, forKey: key) == nil else { return nil }
            skipWhitespace()
        } while consume(",")
        return consume("}") ? .object(members) : nil
    }

    private mutating func array(depth: Int) -> TokenJSON? {
        index += 1
        var elements: [TokenJSON] = []
        skipWhitespace()
        if consume("]") { return .array(elements) }
        repeat {
            guard let element = value(depth: depth + 1) else { return nil }
            elements.append(element)
            skipWhitespace()
        } while consume(",")
        return consume("]") ? .array(elements) : nil
    }

    private mutating func string() -> String? {
        index += 1
        var out: [UInt8] = []
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = escape() else { return nil }
                out.append(contentsOf: escaped)
            case 0..<0x20: return nil
            default: out.append(byte)
            }
        }
        return nil
    }

    private mutating func escape() -> [UInt8]? {
        guard let byte = peek else { return nil }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return [byte]
        case UInt8(ascii: "b"): return [0x08]
        case UInt8(ascii: "f"): return [0x0C]
        case UInt8(ascii: "n"): return [0x0A]
        case UInt8(ascii: "r"): return [0x0D]
        case UInt8(ascii: "t"): return [0x09]
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            var value = UInt32(unit)
            if (0xD800..<0xDC00).contains(unit) {
                guard consume("\\"), consume("u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                value = 0x10000 + ((value - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return Array(String(Character(scalar)).utf8)
        default: return nil
        }
    }

    private mutating func hex4() -> UInt16? {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek else { return nil }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
    private mutating func number() -> TokenJSON? {
        let start = index
        _ = consume("-")
        if !consume("0") {
            guard let first = peek, (0x31...0x39).contains(first) else { return nil }
            skipDigits()
        }
        if consume(".") { guard skipDigits() > 0 else { return nil } }
        if consume("e") || consume("E") {
            _ = consume("+") || consume("-")
            guard skipDigits() > 0 else { return nil }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek, (0x30...0x39).contains(byte) { index += 1 }
        return index - start
    }
}

/// Writes canonical JSON text (TOK-3): strings escape only `"`, `\` and control characters.
struct TokenJSONWriter {
    private(set) var bytes: [UInt8] = []

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func string(_ text: String) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x0A: bytes += Array(#"\n"#.utf8)
            case 0x0D: bytes += Array(#"\r"#.utf8)
            case 0x09: bytes += Array(#"\t"#.utf8)
            case 0..<0x20: bytes += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
