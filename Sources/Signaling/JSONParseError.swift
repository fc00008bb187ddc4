/// Why and where strict JSON parsing failed (SIG-4, SIG-8): a byte offset into the UTF-8 text
/// and the kind of violation, rendered as a one-line message.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule that was broken.
    public enum Kind: Hashable, Sendable {
        /// The text ended where `expected` was still needed.
        case unexpectedEnd(expected: String)
        /// `found` (a rendered character) stands where `expected` was needed.
        case unexpectedCharacter(found: String, expected: String)
        /// A word that starts like `true`, `false` or `null` but is not one.
        case invalidLiteral
        /// A number that breaks the grammar, with the reason.
        case invalidNumber(String)
        /// A number with a superfluous leading zero (`01`, `-00.5`).
        case leadingZero
        /// A comma right before `]` or `}`.
        case trailingComma
        /// Non-whitespace text after the top-level value.
        case trailingCharacters
        /// An unescaped control character (U+0000 to U+001F) inside a string.
        case controlCharacter(UInt8)
        /// A backslash escape that is not one of `\" \\ \/ \b \f \n \r \t \uXXXX`.
        case invalidEscape
        /// A `\uXXXX` surrogate without its partner.
        case loneSurrogate(UInt16)
        /// The text ended inside a string.
        case unterminatedString
        /// An object repeats a key.
        case duplicateKey(String)
        /// Arrays/objects nest deeper than the limit.
        case depthLimitExceeded(limit: Int)
        /// The bytes are not UTF-8 (RFC 8259 section 8.1).
        case invalidUTF8
    }

    /// Offset in bytes from the start of the UTF-8 text.
    public let offset: Int
    public let kind: Kind

    public init(offset: Int, kind: Kind) {
        self.offset = offset
        self.kind = kind
    }

    /// What went wrong, without the offset.
    public var message: String {
        switch kind {
        case .unexpectedEnd(let expected): "unexpected end of input, expected \(expected)"
        case .unexpectedCharacter(let found, let expected): "unexpected \(found), expected \(expected)"
        case .invalidLiteral: "invalid literal, expected true, false or null"
        case .invalidNumber(let reason): "invalid number: \(reason)"
        case .leadingZero: "invalid number: leading zeros are not allowed"
        case .trailingComma: "trailing comma before the closing bracket"
        case .trailingCharacters: "unexpected text after the JSON value"
        case .controlCharacter(let byte): "unescaped control character U+\(hex4(UInt16(byte))) in string"
        case .invalidEscape: "invalid escape sequence in string"
        case .loneSurrogate(let unit): "lone surrogate \\u\(hex4(unit)) in string"
        case .unterminatedString: "unterminated string"
        case .duplicateKey(let key): "duplicate object key \"\(key)\""
        case .depthLimitExceeded(let limit): "nesting deeper than \(limit) levels"
        case .invalidUTF8: "the text is not UTF-8"
        }
    }

    public var description: String { "JSON parse error at byte \(offset): \(message)" }
}

/// Four upper-case hex digits.
func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
