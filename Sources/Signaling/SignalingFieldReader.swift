/// Reads the members of one message object, turning absence and wrong kinds into
/// `SignalingProtocolError`s named after the field (SIG-8). A `null` in an optional typed
/// field counts as absent; JSON-valued fields keep `null` as a value.
struct SignalingFieldReader {
    let type: String
    let object: JSONObject

    private func wrong(_ field: String, _ expected: String, _ found: JSONValue) -> SignalingProtocolError {
        .wrongFieldType(type: type, field: field, expected: expected, found: found.kindName)
    }

    func string(_ field: String) throws(SignalingProtocolError) -> String {
        guard let value = object[field] else { throw .missingField(type: type, field: field) }
        guard case .string(let string) = value else { throw wrong(field, "string", value) }
        return string
    }

    func optionalString(_ field: String) throws(SignalingProtocolError) -> String? {
        guard let value = object[field], value != .null else { return nil }
        guard case .string(let string) = value else { throw wrong(field, "string", value) }
        return string
    }

    func optionalBool(_ field: String) throws(SignalingProtocolError) -> Bool? {
        guard let value = object[field], value != .null else { return nil }
        guard case .bool(let flag) = value else { throw wrong(field, "bool", value) }
        return flag
    }

    /// A count within `range`, e.g. a channel's connections; absent (or `null`) is nil. A
    /// number with a fraction is the wrong kind; a whole number outside `range` is out of range.
    func optionalCount(_ field: String, in range: ClosedRange<Int>) throws(SignalingProtocolError) -> Int? {
        guard let value = object[field], value != .null else { return nil }
        guard case .number(let number) = value, Self.isWhole(number) else { throw wrong(field, "integer", value) }
        guard let count = number.intValue, range.contains(count) else {
            throw .outOfRange(type: type, field: field, value: String(number.text.prefix(40)), range: range)
        }
        return count
    }

    /// Whether a number has no fractional part, however large (`1e400` is whole).
    private static func isWhole(_ number: JSONNumber) -> Bool {
        number.isIntegerText || number.doubleValue.map { $0 == $0.rounded(.towardZero) } ?? true
    }

    /// Any JSON value, `null` included; `nil` only when the member is absent.
    func optionalValue(_ field: String) -> JSONValue? { object[field] }

    func value(_ field: String) throws(SignalingProtocolError) -> JSONValue {
        guard let value = object[field] else { throw .missingField(type: type, field: field) }
        return value
    }
}

/// Builds a message object with `type` first and optional members only when present.
struct SignalingFieldWriter {
    private(set) var object: JSONObject

    init(type: SignalingMessageType) { object = ["type": .string(type.rawValue)] }

    mutating func set(_ field: String, _ value: String?) { if let value { object[field] = .string(value) } }
    mutating func set(_ field: String, _ value: Bool?) { if let value { object[field] = .bool(value) } }
    mutating func set(_ field: String, _ value: Int?) { if let value { object[field] = .number(JSONNumber(value)) } }
    mutating func set(_ field: String, _ value: JSONValue?) { if let value { object[field] = value } }
}
