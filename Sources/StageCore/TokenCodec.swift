/// The wire format of stage participant tokens (TOK-2, TOK-3): a compact JWS,
/// `base64url(header).base64url(payload).base64url(signature)`, ES384 over P-384.
/// Header and payload bytes are canonical (sorted keys, no whitespace), so one claims value
/// always gives one payload segment; only the ECDSA signature segment varies between signings.
public enum TokenCodec {
    /// The claims of `token` without checking its key or signature, for trace summaries (TOK-2).
    /// Nil when the token is malformed: the same structure and payload checks as verification.
    public static func decodeUnverified(_ token: String) -> TokenClaims? {
        guard case .success(let segments) = TokenSegments.parse(token),
              case .success(let claims) = claims(fromPayload: segments.payload) else { return nil }
        return claims
    }

    /// The canonical header JSON: `{"alg":"ES384","kid":"<keyId>","typ":"JWT"}` (TOK-3).
    static func headerJSON(keyId: String) -> [UInt8] {
        var writer = TokenJSONWriter()
        writer.raw(#"{"alg":"ES384","kid":"#)
        writer.string(keyId)
        writer.raw(#","typ":"JWT"}"#)
        return writer.bytes
    }

    /// The canonical payload JSON with the TOK-2 field names, keys sorted, no whitespace.
    static func payloadJSON(_ claims: TokenClaims) -> [UInt8] {
        var writer = TokenJSONWriter()
        writer.raw(#"{"attributes":{"#)
        let pairs = claims.attributes.pairs.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for (index, pair) in pairs.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(pair.key)
            writer.raw(":")
            writer.string(pair.value)
        }
        writer.raw(#"},"capabilities":{"allow_publish":\#(claims.capabilities.canPublish),"#)
        writer.raw(#""allow_subscribe":\#(claims.capabilities.canSubscribe)},"events_url":"#)
        writer.string(claims.eventsURL)
        writer.raw(#","exp":\#(claims.expiresAtSeconds),"iat":\#(claims.issuedAtSeconds),"jti":"#)
        writer.string(claims.participantId)
        writer.raw(#","resource":"#)
        writer.string(claims.resource)
        writer.raw(#","topic":"#)
        writer.string(claims.topic)
        writer.raw(#","user_id":"#)
        writer.string(claims.userId)
        writer.raw(#","whip_url":"#)
        writer.string(claims.whipURL)
        writer.raw("}")
        return writer.bytes
    }

    /// The key id of a header that asks for ES384; malformed otherwise (TOK-1, TOK-3).
    static func keyId(fromHeader bytes: [UInt8]) -> Result<String, TokenRejection> {
        guard case .object(let fields)? = TokenJSONReader.parse(bytes) else {
            return .failure(.malformed("header is not a JSON object"))
        }
        guard case .string(let algorithm)? = fields["alg"] else { return .failure(.malformed("header has no string `alg`")) }
        guard algorithm == "ES384" else { return .failure(.malformed("header alg \(quoted(algorithm)) is not ES384")) }
        guard case .string(let keyId)? = fields["kid"] else { return .failure(.malformed("header has no string `kid`")) }
        return .success(keyId)
    }

    /// The claims of a payload: every TOK-2 field present with its JSON type, integers in
    /// `0...UInt64.max` written as plain digits, a valid `jti`, attributes within 1 KB.
    static func claims(fromPayload bytes: [UInt8]) -> Result<TokenClaims, TokenRejection> {
        guard case .object(let fields)? = TokenJSONReader.parse(bytes) else {
            return .failure(.malformed("payload is not a JSON object"))
        }
        let payload = PayloadFields(fields: fields, context: "payload")
        do throws(TokenRejection) {
            let capabilities = PayloadFields(fields: try payload.object("capabilities"), context: "capabilities")
            let attributeFields = try payload.object("attributes")
            let attributeKeys = attributeFields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let attributes = PayloadFields(fields: attributeFields, context: "attributes")
            let claims = TokenClaims(
                topic: try payload.string("topic"), resource: try payload.string("resource"),
                participantId: try payload.string("jti"), whipURL: try payload.string("whip_url"),
                eventsURL: try payload.string("events_url"),
                attributes: Attributes(try attributeKeys.map { key throws(TokenRejection) in (key, try attributes.string(key)) }),
                capabilities: Capabilities(
                    canPublish: try capabilities.bool("allow_publish"), canSubscribe: try capabilities.bool("allow_subscribe")
                ),
                userId: try payload.string("user_id"),
                issuedAtSeconds: try payload.integer("iat"), expiresAtSeconds: try payload.integer("exp")
            )
            guard TokenClaims.isValidParticipantId(claims.participantId) else {
                return .failure(.malformed("jti \(quoted(claims.participantId)) is not [A-Za-z0-9_-]+"))
            }
            let size = claims.attributes.byteCount
            guard size <= TokenClaims.attributesByteLimit else {
                return .failure(.malformed("attributes are \(size) bytes, over the \(TokenClaims.attributesByteLimit)-byte limit"))
            }
            return .success(claims)
        } catch {
            return .failure(error)
        }
    }

    /// An untrusted string for a rejection reason: JSON-quoted and cut to 96 characters.
    static func quoted(_ text: String) -> String {
        var writer = TokenJSONWriter()
        writer.string(text.count > 96 ? String(text.prefix(96)) + "…" : text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// The typed fields of one JSON object of a payload; each accessor names the field it rejects.
private struct PayloadFields {
    let fields: [String: TokenJSON]
    let context: String

    private func value(_ name: String) throws(TokenRejection) -> TokenJSON {
        guard let value = fields[name] else { throw .malformed("\(context) field \(TokenCodec.quoted(name)) is missing") }
        return value
    }

    func string(_ name: String) throws(TokenRejection) -> String {
        guard case .string(let text) = try value(name) else { throw .malformed("\(context) field \(TokenCodec.quoted(name)) is not a string") }
        return text
    }

    func bool(_ name: String) throws(TokenRejection) -> Bool {
        guard case .bool(let flag) = try value(name) else { throw .malformed("\(context) field \(TokenCodec.quoted(name)) is not a boolean") }
        return flag
    }

    func object(_ name: String) throws(TokenRejection) -> [String: TokenJSON] {
        guard case .object(let members) = try value(name) else { throw .malformed("\(context) field \(TokenCodec.quoted(name)) is not an object") }
        return members
    }

    /// Plain digits only: no sign, fraction or exponent, and no overflow past UInt64.max.
    func integer(_ name: String) throws(TokenRejection) -> UInt64 {
        guard case .number(let literal) = try value(name) else { throw .malformed("\(context) field \(TokenCodec.quoted(name)) is not a number") }
        guard literal.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = UInt64(literal) else {
            throw .malformed("\(context) field \(TokenCodec.quoted(name)) is \(TokenCodec.quoted(literal)), not an integer in 0...\(UInt64.max)")
        }
        return number
    }
}

/// The three decoded segments of a compact JWS and the ASCII bytes its signature covers.
struct TokenSegments {
    var header: [UInt8]
    var payload: [UInt8]
    var signature: [UInt8]
    var signingInput: [UInt8]

    /// Exactly three non-empty segments of canonical base64url, else malformed (TOK-1).
    static func parse(_ token: String) -> Result<TokenSegments, TokenRejection> {
        let bytes = Array(token.utf8)
        var dots: [Int] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x2E { dots.append(index) }  // "."
            index += 1
        }
        guard dots.count == 2 else { return .failure(.malformed("token has \(dots.count + 1) segments, expected 3")) }
        let ranges = [0..<dots[0], (dots[0] + 1)..<dots[1], (dots[1] + 1)..<bytes.count]
        var decoded: [[UInt8]] = []
        for (name, range) in zip(["header", "payload", "signature"], ranges) {
            guard !range.isEmpty else { return .failure(.malformed("\(name) segment is empty")) }
            guard let segment = Base64URL.decode(bytes, range) else {
                return .failure(.malformed("\(name) segment is not canonical unpadded base64url"))
            }
            decoded.append(segment)
        }
        return .success(TokenSegments(
            header: decoded[0], payload: decoded[1], signature: decoded[2], signingInput: Array(bytes[..<dots[1]])
        ))
    }
}

/// Unpadded base64url (RFC 4648 §5) that decodes only canonical text: alphabet `A-Za-z0-9-_`,
/// no `=`, length not ≡ 1 (mod 4), unused trailing bits zero. Each byte string has one encoding.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's 6-bit value, or 0xFF outside the alphabet.
    private static let sextets: [UInt8] = (0...255).map { byte in
        UInt8(alphabet.firstIndex(of: UInt8(byte)) ?? 0xFF)
    }

    static func encode(_ bytes: [UInt8]) -> String {
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

    static func decode(_ text: [UInt8]) -> [UInt8]? { decode(text, text.indices) }

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

// MARK: - JSON

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
/// surrogates, nesting at most `maxDepth` deep. Any deviation gives nil, never a trap.
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

/// Writes canonical JSON text: strings escape only `"`, `\` and control characters.
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
