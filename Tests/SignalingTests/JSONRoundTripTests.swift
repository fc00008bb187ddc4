import Testing
import Signaling

@Suite("JSON round trip")
struct JSONRoundTripTests {
    /// Texts already in canonical form: parse then encode must give the same bytes.
    static let canonicalCorpus: [String] = [
        "null", "true", "false",
        "0", "-0", "1.0", "-0.0", "1e400", "-1e400", "1E-7", "1e-07", "2.5E+10", "-1.5e+10",
        "12345678901234567890123", "-98765432109876543210987654321", "0.000000000000000000000001",
        #""""#, #""plain""#, #""日本語のテキスト""#, #""メタデータ""#, #""😀👍🏽🇯🇵""#, "\"e\u{301} and é\"",
        #""\"\\\b\f\n\r\t\u0000\u001f"# + "\u{7F}\"",
        #""a/b""#, "\"\u{2028}\u{2029}\"",
        "[]", "{}", "[[]]", "[{}]", #"{"":{}}"#, #"{"a":[]}"#,
        #"[null,true,false,0,"x",[],{}]"#,
        #"{"b":1,"a":2,"c":{"z":null,"y":[1,2,3]}}"#,
        #"{"type":"notify","event_type":"connection.created","metadata":{"名前":"太郎"}}"#,
    ]

    @Test("canonical texts round-trip byte for byte", arguments: canonicalCorpus)
    func canonical(_ text: String) throws {
        let value = try JSONValue.parse(text)
        #expect(sameBytes(value.jsonText, text), "\(value.jsonText) != \(text)")
        #expect(try JSONValue.parse(value.jsonText) == value)
    }

    /// Non-canonical inputs and the canonical text they encode to.
    static let normalisingCorpus: [(String, String)] = [
        (" \t\r\n[ 1 , 2 ]\n ", "[1,2]"),
        (#"{ "a" : 1 , "b" : [ ] }"#, #"{"a":1,"b":[]}"#),
        (#""\ud83d\ude00""#, #""😀""#),
        (#""\uD83D\uDE00""#, #""😀""#),
        (#""\u3042\u3044""#, #""あい""#),
        (#""\u0041\/""#, #""A/""#),
        (#""\u001F\u000a""#, #""\u001f\n""#),
        (#""\uD834\uDD1E clef""#, "\"\u{1D11E} clef\""),
    ]

    @Test("escapes and whitespace normalise to the canonical form", arguments: normalisingCorpus)
    func normalising(_ pair: (String, String)) throws {
        let value = try JSONValue.parse(pair.0)
        #expect(sameBytes(value.jsonText, pair.1), "\(value.jsonText) != \(pair.1)")
        #expect(sameBytes(try JSONValue.parse(value.jsonText).jsonText, value.jsonText))
    }

    @Test("escaped surrogate pairs become one scalar")
    func surrogatePairs() throws {
        let value = try JSONValue.parse(#""\ud83d\ude00""#)
        #expect(value.stringValue?.unicodeScalars.map(\.value) == [0x1F600])
    }

    @Test("object members keep their written order")
    func memberOrder() throws {
        let value = try JSONValue.parse(#"{"z":1,"a":2,"m":3}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
        #expect(value != (try JSONValue.parse(#"{"a":2,"m":3,"z":1}"#)))
        #expect(value["a"] == 2)
    }

    @Test("64 levels of nesting parse and round-trip")
    func deepNesting() throws {
        let arrays = nestedArrays(64, inner: "1")
        let value = try JSONValue.parse(arrays)
        #expect(value.depth == 64)
        #expect(sameBytes(value.jsonText, arrays))
        let objects = String(repeating: #"{"k":"#, count: 64) + "null" + String(repeating: "}", count: 64)
        #expect(sameBytes(try JSONValue.parse(objects).jsonText, objects))
    }

    @Test("numbers keep their text and convert on demand")
    func numberAccessors() throws {
        #expect(JSONNumber(text: "1.0")?.intValue == 1)
        #expect(JSONNumber(text: "1e2")?.intValue == 100)
        #expect(JSONNumber(text: "1.5")?.intValue == nil)
        #expect(JSONNumber(text: "-0")?.intValue == 0)
        #expect(JSONNumber(text: "12345678901234567890123")?.intValue == nil)
        #expect(JSONNumber(text: "12345678901234567890123")?.doubleValue == 1.2345678901234568e22)
        #expect(JSONNumber(text: "1e400")?.doubleValue == nil)
        #expect(JSONNumber(text: "1E-7")?.doubleValue == 1e-7)
        #expect(JSONNumber(text: "18446744073709551615")?.integerValue(as: UInt64.self) == .max)
        #expect(JSONNumber(text: "1.0") != JSONNumber(text: "1"))
        for invalid in ["", "01", "+1", "1.", ".5", "1e", "0x10", "NaN", "inf", " 1", "1 ", "--1"] {
            #expect(JSONNumber(text: invalid) == nil, "\(invalid) accepted")
        }
    }

    @Test("numbers from host values use the shortest round-trip text")
    func numbersFromHost() {
        #expect(JSONNumber(42).text == "42")
        #expect(JSONNumber(UInt64.max).text == "18446744073709551615")
        #expect(JSONNumber(0.1)?.text == "0.1")
        #expect(JSONNumber(1.0)?.text == "1.0")
        #expect(JSONNumber(-0.0)?.text == "-0.0")
        #expect(JSONNumber(1e-7)?.text == "1e-07")
        #expect(JSONNumber(1e300)?.text == "1e+300")
        #expect(JSONNumber(Double.leastNonzeroMagnitude)?.text == "5e-324")
        #expect(JSONNumber(Float(0.1))?.text == "0.1")
        #expect(JSONNumber(Double.infinity) == nil)
        #expect(JSONNumber(-Double.infinity) == nil)
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Float.nan) == nil)
        for double in [0.1, 1.0 / 3.0, 123456.789, 1e-7, 6.02214076e23, -2.5] {
            #expect(JSONNumber(double)?.doubleValue == double)
        }
    }

    @Test("empty containers, null and scalars at top level")
    func scalars() throws {
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse(" [ ] ") == .array([]))
        #expect(try JSONValue.parse("{ }") == .object(JSONObject()))
        #expect(try JSONValue.parse(#""""#) == .string(""))
        #expect(JSONValue.null.jsonText == "null")
        #expect(JSONValue.array([]).jsonText == "[]")
        #expect(JSONValue.object([:]).jsonText == "{}")
    }

    @Test("encoding escapes only what it must")
    func minimalEscapes() {
        let value: JSONValue = .string("q\"b\\s/\u{1}\u{1F}\u{7F}é😀\n")
        #expect(sameBytes(value.jsonText, "\"q\\\"b\\\\s/\\u0001\\u001f\u{7F}é😀\\n\""))
    }

    @Test("JSONObject subscript replaces in place, appends new keys, removes on nil")
    func objectEditing() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = "x"
        object["c"] = true
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(JSONValue.object(object).jsonText == #"{"a":"x","c":true}"#)
        let duplicated = JSONObject([("k", 1), ("k", 2)])
        #expect(duplicated.count == 1 && duplicated["k"] == 2)
    }

    @Test("JSONValue subscripts: an element by its zero-based index, a member by key; nil out of range or for another kind")
    func valueSubscripts() throws {
        let array = try JSONValue.parse(#"["a","b","c"]"#)
        #expect([0, 1, 2].map { array[$0] } == ["a", "b", "c"])
        #expect(array[-1] == nil && array[3] == nil && array["a"] == nil)
        let object = try JSONValue.parse(#"{"k":[1,2]}"#)
        #expect(object["k"]?[1] == 2 && object[0] == nil && object["x"] == nil)
    }
}
