import ArgumentParser

/// The values one numeric option allows. `parse` is the option's transform: text that is not
/// such a number, or a number outside the range (a negative count, `nan`, `inf`), is a usage
/// error (exit 64) that argument-parser prints as "The value 'X' is invalid for '--name <name>':
/// expected ...". Options using it parse `.unconditional`, so that `-5` reaches `parse` as a
/// value instead of being read as an option name.
struct NumericRange<Value: Comparable & LosslessStringConvertible & Sendable>: Sendable, CustomStringConvertible {
    let bounds: ClosedRange<Value>
    /// What the value is, for the message: "a whole number", "a number of seconds".
    let noun: String

    var description: String { "\(bounds.lowerBound)...\(bounds.upperBound)" }

    @Sendable func parse(_ text: String) throws -> Value {
        guard let value = Value(text), bounds.contains(value) else {
            throw OutOfRange(description: "expected \(noun) from \(bounds.lowerBound) to \(bounds.upperBound)")
        }
        return value
    }
}

extension NumericRange where Value: FixedWidthInteger {
    init(_ bounds: ClosedRange<Value>) { self.init(bounds: bounds, noun: "a whole number") }
}

extension NumericRange where Value == Double {
    /// Finite seconds within `bounds`; `nan` and `inf` are never inside a closed range.
    static func seconds(_ bounds: ClosedRange<Double>) -> Self { Self(bounds: bounds, noun: "a number of seconds") }
}

/// The message of a value outside its option's range.
struct OutOfRange: Error, CustomStringConvertible {
    let description: String
}

/// The ranges of the numeric options that more than one command takes.
enum OptionRanges {
    static let seed = NumericRange<UInt64>(0...UInt64.max)
    static let jobs = NumericRange<Int>(1...256)
    static let participants = NumericRange<Int>(1...12)
    static let durationSeconds = NumericRange<UInt64>(5...3_600)
}
