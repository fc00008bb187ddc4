extension JSONValue {
    /// Converts a host value to JSON (SIG-3) with a small custom `Encoder`.
    ///
    /// Bool, every integer type, Float, Double, String, arrays, dictionaries and structs are
    /// supported. Dictionaries encode with their keys sorted (numerically for integer keys,
    /// by UTF-8 bytes otherwise) so the output is deterministic; structs keep their coding-key
    /// order; `nil` optionals are omitted by `encodeIfPresent`. A `JSONValue` inside the host
    /// value is copied as is. Non-finite floating-point values and nesting deeper than
    /// `maximumDepth` throw `EncodingError.invalidValue`.
    public init(encoding value: some Encodable) throws {
        let root = EncodingSlot(codingPath: [])
        try root.encode(value)
        self = try root.finish(depth: 0)
    }
}

/// Dictionaries are recognised by this marker and encode with sorted keys.
protocol SortedKeysEncodingMarker {}
extension Dictionary: SortedKeysEncodingMarker {}

/// One node of the value under construction; containers share it by reference so nested
/// containers can write into their parent after they are handed out.
final class EncodingSlot {
    struct Member {
        var key: String
        var intKey: Int?
        var slot: EncodingSlot
    }

    enum Content {
        case empty
        case value(JSONValue)
        case object([Member])
        case array([EncodingSlot])
    }

    let codingPath: [any CodingKey]
    var content: Content = .empty
    var sortKeys = false

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    /// Encodes `value` into this slot, replacing whatever it held.
    func encode<T: Encodable>(_ value: T) throws {
        content = .empty
        sortKeys = false
        if let json = value as? JSONValue {
            content = .value(json)
            return
        }
        sortKeys = value is any SortedKeysEncodingMarker
        try value.encode(to: HostValueEncoder(slot: self))
    }

    func makeObject() {
        if case .object = content { return }
        content = .object([])
    }

    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// The slot for `key` in this object, created on first use.
    func child(for key: any CodingKey) -> EncodingSlot {
        makeObject()
        guard case .object(var members) = content else { return EncodingSlot(codingPath: codingPath + [key]) }
        if let existing = members.first(where: { $0.key == key.stringValue }) { return existing.slot }
        let slot = EncodingSlot(codingPath: codingPath + [key])
        members.append(Member(key: key.stringValue, intKey: key.intValue, slot: slot))
        content = .object(members)
        return slot
    }

    /// A new slot appended to this array.
    func appendChild() -> EncodingSlot {
        makeArray()
        guard case .array(var elements) = content else { return EncodingSlot(codingPath: codingPath) }
        let slot = EncodingSlot(codingPath: codingPath + [AnyCodingKey(index: elements.count)])
        elements.append(slot)
        content = .array(elements)
        return slot
    }

    var arrayCount: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }

    /// The finished value; a slot nothing was written to becomes an empty object.
    func finish(depth: Int) throws -> JSONValue {
        switch content {
        case .value(let value):
            guard depth + value.depth <= JSONValue.maximumDepth else { throw tooDeep() }
            return value
        case .empty:
            return .object(JSONObject())
        case .array(let elements):
            guard depth < JSONValue.maximumDepth else { throw tooDeep() }
            var values: [JSONValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try element.finish(depth: depth + 1)) }
            return .array(values)
        case .object(var members):
            guard depth < JSONValue.maximumDepth else { throw tooDeep() }
            if sortKeys {
                members.sort { lhs, rhs in
                    if let left = lhs.intKey, let right = rhs.intKey { return left < right }
                    return lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8)
                }
            }
            var result: [JSONObject.Member] = []
            result.reserveCapacity(members.count)
            for member in members {
                result.append(JSONObject.Member(key: member.key, value: try member.slot.finish(depth: depth + 1)))
            }
            return .object(JSONObject(uniqueMembers: result))
        }
    }

    private func tooDeep() -> EncodingError {
        EncodingError.invalidValue(
            "nested value",
            EncodingError.Context(codingPath: codingPath, debugDescription: "nesting deeper than \(JSONValue.maximumDepth) levels")
        )
    }
}

/// A JSON number for a floating-point host value, or the encoding error JSON requires.
func finiteNumber(_ value: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
    guard let number = JSONNumber(value) else {
        throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) is not a finite number; JSON cannot express it"))
    }
    return .number(number)
}

func finiteNumber(_ value: Float, _ codingPath: [any CodingKey]) throws -> JSONValue {
    guard let number = JSONNumber(value) else {
        throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) is not a finite number; JSON cannot express it"))
    }
    return .number(number)
}

/// The `Encoder` handed to `encode(to:)`; writes into one slot.
struct HostValueEncoder: Encoder {
    let slot: EncodingSlot
    var codingPath: [any CodingKey] { slot.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.makeObject()
        return KeyedEncodingContainer(HostKeyedEncodingContainer<Key>(slot: slot))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.makeArray()
        return HostUnkeyedEncodingContainer(slot: slot)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { HostSingleValueEncodingContainer(slot: slot) }
}

struct HostKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: EncodingSlot
    var codingPath: [any CodingKey] { slot.codingPath }

    private func set(_ value: JSONValue, _ key: Key) { slot.child(for: key).content = .value(value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try finiteNumber(value, codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try finiteNumber(value, codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.number(JSONNumber(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.number(JSONNumber(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.number(JSONNumber(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.number(JSONNumber(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.number(JSONNumber(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(.number(JSONNumber(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.number(JSONNumber(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.number(JSONNumber(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.number(JSONNumber(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.number(JSONNumber(value)), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try slot.child(for: key).encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = slot.child(for: key)
        child.makeObject()
        return KeyedEncodingContainer(HostKeyedEncodingContainer<NestedKey>(slot: child))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = slot.child(for: key)
        child.makeArray()
        return HostUnkeyedEncodingContainer(slot: child)
    }

    mutating func superEncoder() -> any Encoder { HostValueEncoder(slot: slot.child(for: AnyCodingKey.superKey)) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { HostValueEncoder(slot: slot.child(for: key)) }
}

struct HostUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let slot: EncodingSlot
    var codingPath: [any CodingKey] { slot.codingPath }
    var count: Int { slot.arrayCount }

    private func append(_ value: JSONValue) { slot.appendChild().content = .value(value) }
    private var nextPath: [any CodingKey] { codingPath + [AnyCodingKey(index: count)] }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try finiteNumber(value, nextPath)) }
    mutating func encode(_ value: Float) throws { append(try finiteNumber(value, nextPath)) }
    mutating func encode(_ value: Int) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int8) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int16) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int32) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int64) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt8) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt16) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt32) throws { append(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt64) throws { append(.number(JSONNumber(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { try slot.appendChild().encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = slot.appendChild()
        child.makeObject()
        return KeyedEncodingContainer(HostKeyedEncodingContainer<NestedKey>(slot: child))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = slot.appendChild()
        child.makeArray()
        return HostUnkeyedEncodingContainer(slot: child)
    }

    mutating func superEncoder() -> any Encoder { HostValueEncoder(slot: slot.appendChild()) }
}

struct HostSingleValueEncodingContainer: SingleValueEncodingContainer {
    let slot: EncodingSlot
    var codingPath: [any CodingKey] { slot.codingPath }

    private func set(_ value: JSONValue) { slot.content = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try finiteNumber(value, codingPath)) }
    mutating func encode(_ value: Float) throws { set(try finiteNumber(value, codingPath)) }
    mutating func encode(_ value: Int) throws { set(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int8) throws { set(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int16) throws { set(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int32) throws { set(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int64) throws { set(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt) throws { set(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt8) throws { set(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt16) throws { set(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt32) throws { set(.number(JSONNumber(value))) }
    mutating func encode(_ value: UInt64) throws { set(.number(JSONNumber(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { try slot.encode(value) }
}
