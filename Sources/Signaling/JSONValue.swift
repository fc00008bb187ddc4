/// A dynamic JSON value: null, bool, number, string, array or object (SIG-2, SIG-4).
///
/// Arbitrary metadata (connect.metadata, notify.authnMetadata, push.data, ...) is carried as a
/// `JSONValue`. `parse` is strict RFC 8259 and `jsonText` is the canonical encoding, so
/// `JSONValue.parse(v.jsonText) == v` for every value no deeper than `maximumDepth`.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The deepest array/object nesting the parser and the host-value encoder accept.
    public static let maximumDepth = 64
}

extension JSONValue {
    /// The kind's name as used in error messages: "null", "bool", "number", ...
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public var isNull: Bool { self == .null }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member `key` of an object; `nil` for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// The element at `index` of an array; `nil` when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// Nesting depth: 0 for scalars, 1 + the deepest child for arrays and objects.
    public var depth: Int {
        switch self {
        case .array(let elements): 1 + (elements.map(\.depth).max() ?? 0)
        case .object(let object): 1 + (object.members.map(\.value.depth).max() ?? 0)
        default: 0
        }
    }
}

extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Keeps the literal's order; a repeated key replaces the earlier value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue: CustomStringConvertible {
    /// The canonical JSON text.
    public var description: String { jsonText }
}
