import Testing
import Signaling

private struct Inner: Codable, Hashable {
    var level: Int
    var ratio: Double
    var flags: [Bool]
}

private struct Profile: Codable, Hashable {
    var name: String
    var age: UInt8
    var nickname: String?
    var inner: Inner
    var scores: [String: Int]
    var extra: JSONValue
}

@Suite("Host values (SIG-3)")
struct JSONHostValueTests {
    private func connectFrame(metadata: some Encodable) throws -> String {
        let connect = SignalingConnect(role: .sendrecv, channelId: "sora", metadata: try JSONValue(encoding: metadata))
        return SignalingMessage.connect(connect).frame
    }

    @Test("seed example: metadata \"contents\" encodes as a JSON string")
    func seedStringMetadata() throws {
        #expect(try JSONValue(encoding: "contents") == .string("contents"))
        #expect(try connectFrame(metadata: "contents").hasPrefix(#"{"type":"connect","metadata":"contents","#))
    }

    @Test("seed example: [\"key\": \"value\"] encodes as a JSON object")
    func seedDictionaryMetadata() throws {
        #expect(try JSONValue(encoding: ["key": "value"]).jsonText == #"{"key":"value"}"#)
        #expect(try connectFrame(metadata: ["key": "value"]).hasPrefix(#"{"type":"connect","metadata":{"key":"value"},"#))
    }

    @Test("basic types: Bool, Int, Float, String, arrays")
    func basics() throws {
        #expect(try JSONValue(encoding: true) == .bool(true))
        #expect(try JSONValue(encoding: -7).jsonText == "-7")
        #expect(try JSONValue(encoding: Int8.min).jsonText == "-128")
        #expect(try JSONValue(encoding: UInt64.max).jsonText == "18446744073709551615")
        #expect(try JSONValue(encoding: [1, 2, 3]).jsonText == "[1,2,3]")
        #expect(try JSONValue(encoding: [[String]]([["a"], []])).jsonText == #"[["a"],[]]"#)
        #expect(try JSONValue(encoding: Int?.none) == .null)
        #expect(try JSONValue(encoding: [Int?]([1, nil])).jsonText == "[1,null]")
    }

    @Test("String-keyed dictionaries encode with sorted keys, every time")
    func sortedKeys() throws {
        var dictionary: [String: Int] = [:]
        for (index, key) in ["pear", "apple", "Zebra", "あ", "banana", "a", "", "apple2"].enumerated() { dictionary[key] = index }
        let expected = #"{"":6,"Zebra":2,"a":5,"apple":1,"apple2":7,"banana":4,"pear":0,"あ":3}"#
        for _ in 0..<20 {
            let copy = Dictionary(uniqueKeysWithValues: dictionary.shuffled().map { ($0.key, $0.value) })
            #expect(try JSONValue(encoding: copy).jsonText == expected)
        }
        #expect(try JSONValue(encoding: [10: "ten", 2: "two", -1: "minus"]).jsonText == #"{"-1":"minus","2":"two","10":"ten"}"#)
    }

    @Test("structs keep coding-key order, omit nil optionals and round-trip through decode")
    func nestedStruct() throws {
        let profile = Profile(
            name: "太郎", age: 30, nickname: nil, inner: Inner(level: 2, ratio: 0.25, flags: [true, false]),
            scores: ["math": 90, "art": 75], extra: ["big": .number(JSONNumber(text: "1e400") ?? 0), "keep": [1, "x"]]
        )
        let value = try JSONValue(encoding: profile)
        #expect(value.jsonText == #"{"name":"太郎","age":30,"inner":{"level":2,"ratio":0.25,"flags":[true,false]},"scores":{"art":75,"math":90},"extra":{"big":1e400,"keep":[1,"x"]}}"#)
        #expect(try value.decode(Profile.self) == profile)
        var withNickname = profile
        withNickname.nickname = "たろう"
        #expect(try JSONValue(encoding: withNickname).objectValue?.keys == ["name", "age", "nickname", "inner", "scores", "extra"])
        #expect(try JSONValue(encoding: withNickname).decode(Profile.self) == withNickname)
    }

    @Test("Float and Double values use their shortest text and decode back exactly")
    func floatingPoint() throws {
        #expect(try JSONValue(encoding: Float(0.1)).jsonText == "0.1")
        #expect(try JSONValue(encoding: 0.1).jsonText == "0.1")
        #expect(try JSONValue(encoding: [Float(1.5), Float(-0.0), Float(3.4028235e38)]).jsonText == "[1.5,-0.0,3.4028235e+38]")
        #expect(try JSONValue(encoding: 1e-7).jsonText == "1e-07")
        #expect(try JSONValue.parse("0.1").decode(Float.self) == Float(0.1))
        #expect(try JSONValue.parse("0.1").decode(Double.self) == 0.1)
        #expect(try JSONValue.parse("1E-7").decode(Double.self) == 1e-7)
        #expect(try JSONValue.parse("3").decode(Double.self) == 3)
    }

    /// A number just above the midpoint of two neighbouring floats: read through `Double` it
    /// becomes the midpoint itself and ties to the even float below (double rounding).
    @Test("a Float is the float nearest the number's text, not the Double's nearest float")
    func floatWithoutDoubleRounding() throws {
        #expect(try JSONValue.parse("1.00000005960464477539062500001").decode(Float.self) == Float(1).nextUp)
        #expect(try JSONValue.parse("1.00000005960464477539062499999").decode(Float.self) == 1)
    }

    @Test("non-finite floats are encoding errors")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try JSONValue(encoding: Double.infinity) }
        #expect(throws: EncodingError.self) { try JSONValue(encoding: [Float.nan]) }
        #expect(throws: EncodingError.self) { try JSONValue(encoding: ["x": -Double.infinity]) }
    }

    @Test("host values nested deeper than 64 levels are encoding errors")
    func tooDeep() throws {
        let deep64 = try JSONValue.parse(nestedArrays(64))
        #expect(try JSONValue(encoding: deep64) == deep64)
        #expect(throws: EncodingError.self) { try JSONValue(encoding: [deep64]) }
    }

    @Test("decoding checks kinds and ranges")
    func decodingErrors() throws {
        #expect(try JSONValue.parse("1.0").decode(Int.self) == 1)
        #expect(try JSONValue.parse("18446744073709551615").decode(UInt64.self) == .max)
        #expect(throws: DecodingError.self) { try JSONValue.parse("1.5").decode(Int.self) }
        #expect(throws: DecodingError.self) { try JSONValue.parse("256").decode(UInt8.self) }
        #expect(throws: DecodingError.self) { try JSONValue.parse("-1").decode(UInt.self) }
        #expect(throws: DecodingError.self) { try JSONValue.parse("1e400").decode(Double.self) }
        #expect(throws: DecodingError.self) { try JSONValue.parse(#""1""#).decode(Int.self) }
        #expect(throws: DecodingError.self) { try JSONValue.parse("null").decode(String.self) }
        #expect(throws: DecodingError.self) { try JSONValue.parse(#"{"level":1,"ratio":1}"#).decode(Inner.self) }
        #expect(try JSONValue.parse("[1,null,3]").decode([Int?].self) == [1, nil, 3])
        #expect(try JSONValue.parse(#"{"b":2,"a":1}"#).decode([String: Int].self) == ["a": 1, "b": 2])
        #expect(try JSONValue.parse(#"{"10":"x"}"#).decode([Int: String].self) == [10: "x"])
        do {
            _ = try JSONValue.parse(#"{"level":1,"ratio":"no","flags":[]}"#).decode(Inner.self)
            Issue.record("decoded a string as Double")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["ratio"])
        }
    }

    /// A host type that reads an array slot by slot, asking `decodeNil()` first, as
    /// hand-written `init(from:)` methods do for optional elements.
    private struct Slots: Decodable, Equatable {
        var values: [Int?]

        init(values: [Int?]) { self.values = values }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            values = []
            while !container.isAtEnd {
                values.append(try container.decodeNil() ? nil : try container.decode(Int.self))
            }
        }
    }

    @Test("an unkeyed container's decodeNil() says true for a null and moves past it, false otherwise and stays")
    func unkeyedDecodeNil() throws {
        #expect(try JSONValue.parse("[null,1,null,null,2]").decode(Slots.self) == Slots(values: [nil, 1, nil, nil, 2]))
        #expect(try JSONValue.parse("[]").decode(Slots.self) == Slots(values: []))
    }

    @Test("a JSONValue decodes and encodes as itself")
    func jsonValueIdentity() throws {
        let value = try JSONValue.parse(#"{"z":[1.0,-0,1e400],"a":null}"#)
        #expect(try value.decode(JSONValue.self) == value)
        #expect(try JSONValue(encoding: value) == value)
    }
}
