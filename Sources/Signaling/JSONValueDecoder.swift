extension JSONValue {
    /// Converts this value to a host type (SIG-4) with a small custom `Decoder`.
    ///
    /// Integers decode from whole numbers that fit (`1.0` counts as 1), Float and Double from
    /// any number that does not overflow; a `JSONValue` field receives the value as is.
    /// Mismatches throw `DecodingError` with the coding path; nothing traps.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try HostValueDecoder(value: self, codingPath: []).unbox(type)
    }
}

/// The `Decoder` handed to `init(from:)`; reads one value.
struct HostValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self, let json = value as? T { return json }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch(JSONObject.self, value, codingPath) }
        return KeyedDecodingContainer(HostKeyedDecodingContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self, value, codingPath) }
        return HostUnkeyedDecodingContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        HostSingleValueDecodingContainer(value: value, codingPath: codingPath)
    }
}

/// `valueNotFound` for null, `typeMismatch` for any other wrong kind.
func mismatch(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
    let context = DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(type), found \(value.kindName)")
    return value == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
}

struct HostSingleValueDecodingContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    private func number<T>(_ type: T.Type, _ convert: (JSONNumber) -> T?) throws -> T {
        guard case .number(let number) = value else { throw mismatch(type, value, codingPath) }
        guard let result = convert(number) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "number \(number.text) does not fit in \(type)"))
        }
        return result
    }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T { try number(type) { $0.integerValue(as: type) } }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type, value, codingPath) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type, value, codingPath) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double { try number(type) { $0.doubleValue } }
    func decode(_ type: Float.Type) throws -> Float { try number(type) { $0.floatValue } }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try HostValueDecoder(value: value, codingPath: codingPath).unbox(type) }
}

struct HostKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func decoder(for key: Key) throws -> HostValueDecoder {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return HostValueDecoder(value: value, codingPath: codingPath + [key])
    }

    private func value<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T { try decoder(for: key).unbox(type) }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).value == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder(for: key).unkeyedContainer() }

    func superDecoder() throws -> any Decoder {
        HostValueDecoder(value: object["super"] ?? .null, codingPath: codingPath + [AnyCodingKey.superKey])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        HostValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

struct HostUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private func currentDecoder(_ type: Any.Type) throws -> HostValueDecoder {
        let path = codingPath + [AnyCodingKey(index: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(codingPath: path, debugDescription: "unkeyed container is at its end"))
        }
        return HostValueDecoder(value: elements[currentIndex], codingPath: path)
    }

    /// Decodes the current element and moves on only when that succeeded.
    private mutating func next<T: Decodable>(_ type: T.Type) throws -> T {
        let result = try currentDecoder(type).unbox(type)
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard try currentDecoder(Never.self).value == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try currentDecoder(KeyedDecodingContainer<NestedKey>.self).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try currentDecoder((any UnkeyedDecodingContainer).self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try currentDecoder((any Decoder).self)
        currentIndex += 1
        return decoder
    }
}
