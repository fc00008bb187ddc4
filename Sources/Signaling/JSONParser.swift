extension JSONValue {
    /// Parses `text` strictly per RFC 8259 (SIG-4): any value at top level, only the four
    /// whitespace characters, no trailing text, no duplicate keys, nesting at most
    /// `maximumDepth`. Never traps; every failure is a `JSONParseError` with a byte offset.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8), maximumDepth: maximumDepth)
        return try parser.parseDocument()
    }

    /// Parses raw bytes as `parse(_:)` does, after checking that they are UTF-8 (RFC 8259
    /// section 8.1); the first byte that is not is an `invalidUTF8` error at its offset.
    public static func parse(utf8 bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        if let offset = firstInvalidUTF8Offset(bytes) { throw JSONParseError(offset: offset, kind: .invalidUTF8) }
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        return try parser.parseDocument()
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence.
    private static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}

/// A recursive-descent parser over UTF-8 bytes; recursion is bounded by `maximumDepth`.
struct JSONParser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw JSONParseError(offset: index, kind: .trailingCharacters) }
        return value
    }

    // MARK: values

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw JSONParseError(offset: index, kind: .unexpectedEnd(expected: "a value")) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw unexpected(expected: "a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw JSONParseError(offset: index, kind: .depthLimitExceeded(limit: maximumDepth)) }
        index += 1  // {
        var members: [JSONObject.Member] = []
        var seen: Set<String> = []  // filled once the object outgrows `linearKeyCheckLimit`
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(uniqueMembers: members))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw JSONParseError(offset: index, kind: .unexpectedEnd(expected: "an object key")) }
            if bytes[index] == UInt8(ascii: "}") { throw JSONParseError(offset: index, kind: .trailingComma) }
            guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected(expected: "a string key") }
            let keyOffset = index
            let key = try parseString()
            guard !Self.repeats(key, in: members, seen: &seen) else { throw JSONParseError(offset: keyOffset, kind: .duplicateKey(key)) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw JSONParseError(offset: index, kind: .unexpectedEnd(expected: "',' or '}'")) }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONObject(uniqueMembers: members)) }
            throw unexpected(expected: "',' or '}'")
        }
    }

    /// Up to this many members, a new key is checked against the others one by one.
    private static let linearKeyCheckLimit = 16

    /// Whether `key` repeats a key of `members`: a scan while the object is small, a set of its
    /// keys once it is not (`seen`, built at the limit, then kept up to date).
    private static func repeats(_ key: String, in members: [JSONObject.Member], seen: inout Set<String>) -> Bool {
        if members.count < linearKeyCheckLimit { return members.contains { $0.key == key } }
        if seen.isEmpty { seen = Set(members.map(\.key)) }
        return !seen.insert(key).inserted
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw JSONParseError(offset: index, kind: .depthLimitExceeded(limit: maximumDepth)) }
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw JSONParseError(offset: index, kind: .trailingComma) }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw JSONParseError(offset: index, kind: .unexpectedEnd(expected: "',' or ']'")) }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw unexpected(expected: "',' or ']'")
        }
    }

    private mutating func parseLiteral(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let count = word.utf8CodeUnitCount
        var matched = 0
        word.withUTF8Buffer { expected in
            while matched < count, start + matched < bytes.count, bytes[start + matched] == expected[matched] { matched += 1 }
        }
        guard matched == count else { throw JSONParseError(offset: start, kind: .invalidLiteral) }
        index += count
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        switch JSONNumber.scan(bytes, from: start) {
        case .success(let end):
            index = end
            return JSONNumber(validatedText: String(decoding: bytes[start..<end], as: UTF8.self))
        case .failure(let error):
            throw error
        }
    }

    // MARK: strings

    /// A string without escapes is made from its bytes in place; the first escape moves the
    /// work to a byte buffer.
    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
            case UInt8(ascii: "\\"), 0x00..<0x20:
                return try parseEscapedString(from: start)
            default:
                index += 1
            }
        }
        throw JSONParseError(offset: index, kind: .unterminatedString)
    }

    /// The rest of a string that holds an escape or a control character, its bytes from
    /// `start` to `index` already scanned.
    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        var out = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw JSONParseError(offset: index, kind: .unterminatedString) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &out)
            case 0x00..<0x20:
                throw JSONParseError(offset: index, kind: .controlCharacter(byte))
            default:
                out.append(byte)  // input came from a Swift String, so it is valid UTF-8
                index += 1
            }
        }
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws(JSONParseError) {
        let start = index
        index += 1  // backslash
        guard index < bytes.count else { throw JSONParseError(offset: index, kind: .unterminatedString) }
        let simple: UInt8? = switch bytes[index] {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case UInt8(ascii: "/"): UInt8(ascii: "/")
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            out.append(simple)
            index += 1
            return
        }
        guard bytes[index] == UInt8(ascii: "u") else { throw JSONParseError(offset: start, kind: .invalidEscape) }
        index += 1
        let unit = try readHex4(escapeStart: start)
        var scalarValue = UInt32(unit)
        if (0xD800...0xDBFF).contains(unit) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw JSONParseError(offset: start, kind: .loneSurrogate(unit))
            }
            let lowStart = index
            index += 2
            let low = try readHex4(escapeStart: lowStart)
            guard (0xDC00...0xDFFF).contains(low) else { throw JSONParseError(offset: start, kind: .loneSurrogate(unit)) }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(unit) {
            throw JSONParseError(offset: start, kind: .loneSurrogate(unit))
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw JSONParseError(offset: start, kind: .invalidEscape) }
        UTF8.encode(scalar) { out.append($0) }
    }

    private mutating func readHex4(escapeStart: Int) throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw JSONParseError(offset: index, kind: .unterminatedString) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError(offset: escapeStart, kind: .invalidEscape)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    // MARK: helpers

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8, _ name: String) throws(JSONParseError) {
        guard index < bytes.count else { throw JSONParseError(offset: index, kind: .unexpectedEnd(expected: name)) }
        guard bytes[index] == byte else { throw unexpected(expected: name) }
        index += 1
    }

    /// An `unexpectedCharacter` error for the character at `index`.
    private func unexpected(expected: String) -> JSONParseError {
        JSONParseError(offset: index, kind: .unexpectedCharacter(found: renderCharacter(at: index), expected: expected))
    }

    /// The character at `offset` for a message: `'x'`, or `U+000A` for invisible ones.
    private func renderCharacter(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let lead = bytes[offset]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        let slice = bytes[offset..<min(bytes.count, offset + length)]
        let text = String(decoding: slice, as: UTF8.self)
        guard let scalar = text.unicodeScalars.first else { return "byte 0x\(String(lead, radix: 16))" }
        if scalar.value < 0x21 || scalar.value == 0x7F { return "U+\(hex4(UInt16(truncatingIfNeeded: scalar.value)))" }
        return "'\(text)'"
    }
}
