import Testing
import Signaling

@Suite("JSON rejection")
struct JSONRejectionTests {
    struct Case: Sendable, CustomStringConvertible {
        let text: String
        let offset: Int
        let kind: JSONParseError.Kind
        /// The text as a JSON string literal, shortened, so control characters stay visible.
        var description: String { JSONValue.string(text.count > 30 ? String(text.prefix(30)) + "..." : text).jsonText }
    }

    static let corpus: [Case] = [
        Case(text: "", offset: 0, kind: .unexpectedEnd(expected: "a value")),
        Case(text: "   ", offset: 3, kind: .unexpectedEnd(expected: "a value")),
        Case(text: "[1,]", offset: 3, kind: .trailingComma),
        Case(text: #"{"a":1,}"#, offset: 7, kind: .trailingComma),
        Case(text: "[1 , ]", offset: 5, kind: .trailingComma),
        Case(text: "01", offset: 0, kind: .leadingZero),
        Case(text: "[-01]", offset: 1, kind: .leadingZero),
        Case(text: "00.5", offset: 0, kind: .leadingZero),
        Case(text: "1.", offset: 2, kind: .invalidNumber("expected a digit after the decimal point")),
        Case(text: "-", offset: 1, kind: .invalidNumber("expected a digit")),
        Case(text: "1e+", offset: 3, kind: .invalidNumber("expected a digit in the exponent")),
        Case(text: ".5", offset: 0, kind: .unexpectedCharacter(found: "'.'", expected: "a value")),
        Case(text: "+1", offset: 0, kind: .unexpectedCharacter(found: "'+'", expected: "a value")),
        Case(text: "NaN", offset: 0, kind: .unexpectedCharacter(found: "'N'", expected: "a value")),
        Case(text: "\u{FEFF}1", offset: 0, kind: .unexpectedCharacter(found: "'\u{FEFF}'", expected: "a value")),
        Case(text: "tru", offset: 0, kind: .invalidLiteral),
        Case(text: "[nul]", offset: 1, kind: .invalidLiteral),
        Case(text: #""\ud800""#, offset: 1, kind: .loneSurrogate(0xD800)),
        Case(text: #""ab\udc00""#, offset: 3, kind: .loneSurrogate(0xDC00)),
        Case(text: #""\ud800\u0041""#, offset: 1, kind: .loneSurrogate(0xD800)),
        Case(text: #""\ud800\ud800""#, offset: 1, kind: .loneSurrogate(0xD800)),
        Case(text: "\"a\tb\"", offset: 2, kind: .controlCharacter(0x09)),
        Case(text: "\"line\nbreak\"", offset: 5, kind: .controlCharacter(0x0A)),
        Case(text: "\"\u{0}\"", offset: 1, kind: .controlCharacter(0x00)),
        Case(text: #""\x""#, offset: 1, kind: .invalidEscape),
        Case(text: #""\u12G4""#, offset: 1, kind: .invalidEscape),
        Case(text: #""abc"#, offset: 4, kind: .unterminatedString),
        Case(text: #""é"#, offset: 3, kind: .unterminatedString),
        Case(text: "[1, 2", offset: 5, kind: .unexpectedEnd(expected: "',' or ']'")),
        Case(text: #"{"a""#, offset: 4, kind: .unexpectedEnd(expected: "':'")),
        Case(text: "[1 2]", offset: 3, kind: .unexpectedCharacter(found: "'2'", expected: "',' or ']'")),
        Case(text: #"{"a" 1}"#, offset: 5, kind: .unexpectedCharacter(found: "'1'", expected: "':'")),
        Case(text: "{1:2}", offset: 1, kind: .unexpectedCharacter(found: "'1'", expected: "a string key")),
        Case(text: #"{"a":1,"a":2}"#, offset: 7, kind: .duplicateKey("a")),
        Case(text: #"{"x":{"a":1,"b":2,"a":3}}"#, offset: 18, kind: .duplicateKey("a")),
        Case(text: "1 2", offset: 2, kind: .trailingCharacters),
        Case(text: "{}x", offset: 2, kind: .trailingCharacters),
        Case(text: nestedArrays(65), offset: 64, kind: .depthLimitExceeded(limit: 64)),
        Case(text: String(repeating: #"{"k":"#, count: 65) + "1" + String(repeating: "}", count: 65), offset: 64 * 5, kind: .depthLimitExceeded(limit: 64)),
    ]

    @Test("malformed texts fail with the right offset and kind", arguments: corpus)
    func rejected(_ testCase: Case) {
        let error = parseError(testCase.text)
        #expect(error?.offset == testCase.offset)
        #expect(error?.kind == testCase.kind)
        #expect(error?.description.hasPrefix("JSON parse error at byte \(testCase.offset): ") == true)
    }

    @Test("a repeated key is found in an object past the size checked key by key, and twenty unique keys parse")
    func wideObjectKeys() throws {
        let members = (0..<20).map { #""k\#($0)":\#($0)"# }
        let unique = try JSONValue.parse("{" + members.joined(separator: ",") + "}")
        guard case .object(let object) = unique else { Issue.record("not an object"); return }
        #expect(object.keys == (0..<20).map { "k\($0)" })
        let repeated = "{" + members.joined(separator: ",") + #","k3":0}"#
        let error = parseError(repeated)
        #expect(error?.kind == .duplicateKey("k3"))
        #expect(error?.offset == repeated.utf8.count - #""k3":0}"#.utf8.count)
    }

    @Test("a string whose escapes follow plain text decodes whole")
    func escapesAfterPlainText() throws {
        #expect(try JSONValue.parse(#""plain\n\u00e9 \"q\" tail""#) == .string("plain\né \"q\" tail"))
        #expect(JSONValue.string("a\r\nb\u{1}\"\\é").jsonText == #""a\r\nb\u0001\"\\é""#)
    }

    @Test("very deep input fails with the depth error instead of exhausting the stack")
    func hostileDepth() {
        let error = parseError(nestedArrays(100_000))
        #expect(error?.kind == .depthLimitExceeded(limit: 64))
        #expect(error?.offset == 64)
    }

    @Test("every proper prefix of a document is a clean error, never a crash")
    func truncations() {
        let document = #"{"a":[1,-2.5e3,"\u3042\ud83d\ude00",true,null],"b":{"c":false}}"#
        let bytes = Array(document.utf8)
        for end in 0..<bytes.count {
            let prefix = String(decoding: bytes[0..<end], as: UTF8.self)
            let error = parseError(prefix)
            #expect(error != nil, "prefix of length \(end) parsed")
            if let error { #expect(error.offset <= end) }
        }
        #expect(parseError(document) == nil)
    }

    @Test("messages are one line and name the problem")
    func messages() {
        #expect(parseError(#"{"a":1,"a":2}"#)?.description == #"JSON parse error at byte 7: duplicate object key "a""#)
        #expect(parseError("\"a\tb\"")?.message == "unescaped control character U+0009 in string")
        #expect(parseError(#""\ud800""#)?.message == #"lone surrogate \uD800 in string"#)
        #expect(parseError("[\n]x")?.message == "unexpected text after the JSON value")
    }
}
