/// A JSON number kept as the exact decimal text it was written with (SIG-2, SIG-4).
///
/// The text always matches the RFC 8259 number grammar, so `1.0`, `-0`, `1e400` and
/// `12345678901234567890123` survive a parse/encode round trip byte for byte. Two numbers are
/// equal when their texts are equal: `1.0` and `1` are different values.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    /// The number's decimal text, exactly as written.
    public let text: String

    /// A number from its decimal text, or `nil` when the text is not a JSON number.
    public init?(text: String) {
        let bytes = Array(text.utf8)
        guard case .success(let end) = JSONNumber.scan(bytes, from: 0), end == bytes.count else { return nil }
        self.text = text
    }

    /// A number whose text the caller has already checked against the grammar.
    init(validatedText: String) { self.text = validatedText }

    /// The decimal text of an integer.
    public init(_ int: Int) { self.text = String(int) }

    /// The decimal text of any integer type (`UInt64`, `Int8`, ...).
    public init<T: BinaryInteger>(_ integer: T) { self.text = String(integer) }

    /// The shortest text that reads back as `double`; `nil` for infinities and NaN, which JSON
    /// cannot express (an encoding error for the caller).
    public init?(_ double: Double) {
        guard double.isFinite else { return nil }
        self.init(text: double.description)
    }

    /// The shortest text that reads back as `float`; `nil` for infinities and NaN.
    public init?(_ float: Float) {
        guard float.isFinite else { return nil }
        self.init(text: float.description)
    }

    /// True when the text has no fraction and no exponent (`12`, `-0`).
    public var isIntegerText: Bool {
        !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    }

    /// The value as an `Int` when it is a whole number that fits (`1.0` and `1e2` count).
    public var intValue: Int? { integerValue(as: Int.self) }

    /// The value as any fixed-width integer when it is a whole number that fits.
    public func integerValue<T: FixedWidthInteger>(as type: T.Type) -> T? {
        if isIntegerText {
            if let exact = T(text) { return exact }
            if text == "-0" { return 0 }
            return nil
        }
        guard let double = doubleValue, double.rounded(.towardZero) == double else { return nil }
        return T(exactly: double)
    }

    /// The nearest `Double`; `nil` when the magnitude overflows to infinity (`1e400`).
    public var doubleValue: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The nearest `Float`; `nil` when the magnitude overflows to infinity.
    public var floatValue: Float? {
        guard let value = Float(text), value.isFinite else { return nil }
        return value
    }

    public var description: String { text }
}

extension JSONNumber: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self.init(value) }
}

extension JSONNumber {
    /// Scans one number per the RFC 8259 grammar
    /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?` starting at `start`.
    /// Returns the end offset, or the offset and kind of the first violation.
    static func scan(_ bytes: [UInt8], from start: Int) -> Result<Int, JSONParseError> {
        var index = start
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") }
        func failure(_ at: Int, _ reason: String) -> Result<Int, JSONParseError> {
            .failure(JSONParseError(offset: at, kind: .invalidNumber(reason)))
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return failure(index, "expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return .failure(JSONParseError(offset: start, kind: .leadingZero)) }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return failure(index, "expected a digit after the decimal point") }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { return failure(index, "expected a digit in the exponent") }
            while isDigit(index) { index += 1 }
        }
        return .success(index)
    }
}
