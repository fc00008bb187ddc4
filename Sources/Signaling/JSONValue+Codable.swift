/// `JSONValue` as a `Codable` field of host types (SIG-2, SIG-3), so metadata structs can
/// carry arbitrary JSON. This module's own coders copy the value exactly; other coders go
/// through their primitives (numbers as Int64/UInt64/Double; decoded object keys sorted by UTF-8,
/// since those decoders do not report the written order).
extension JSONValue: Codable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number(let number):
            var container = encoder.singleValueContainer()
            if let exact = number.integerValue(as: Int64.self), number.isIntegerText {
                try container.encode(exact)
            } else if let exact = number.integerValue(as: UInt64.self), number.isIntegerText {
                try container.encode(exact)
            } else {
                try container.encode(number.doubleValue ?? .infinity)  // overflow: the coder reports it
            }
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for member in object.members { try container.encode(member.value, forKey: AnyCodingKey(stringValue: member.key)) }
        }
    }

    public init(from decoder: any Decoder) throws {
        if let host = decoder as? HostValueDecoder {
            self = host.value
            return
        }
        if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var object = JSONObject()
            // Other decoders do not report the written order: sort keys so the result is deterministic.
            let keys = container.allKeys.sorted { $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8) }
            for key in keys { object[key.stringValue] = try container.decode(JSONValue.self, forKey: key) }
            self = .object(object)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .number(JSONNumber(integer))
        } else if let integer = try? container.decode(UInt64.self) {
            self = .number(JSONNumber(integer))
        } else if let double = try? container.decode(Double.self), let number = JSONNumber(double) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }
}
