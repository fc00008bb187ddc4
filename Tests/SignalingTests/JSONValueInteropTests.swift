import Foundation
import Testing
import Signaling

/// A host type that carries arbitrary JSON next to typed fields.
private struct Envelope: Codable, Equatable {
    var id: Int
    var payload: JSONValue
}

@Suite("JSONValue with other coders")
struct JSONValueInteropTests {
    @Test("JSONValue fields survive Foundation's JSONEncoder and JSONDecoder")
    func foundationRoundTrip() throws {
        let payload = try JSONValue.parse(#"{"a":[true,null,"日本",-3,0.5],"b":{"c":18446744073709551615}}"#)
        let envelope = Envelope(id: 7, payload: payload)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(envelope)
        #expect(try JSONValue.parse(String(decoding: data, as: UTF8.self)) == ["id": 7, "payload": payload])
        let back = try JSONDecoder().decode(Envelope.self, from: data)
        #expect(back == envelope, "\(back.payload.jsonText)")
    }

    @Test("empty objects and arrays from Foundation's JSONDecoder stay an empty object and an empty array")
    func foundationEmptyContainers() throws {
        let data = Data(#"{"id":1,"payload":{"a":{},"b":[],"c":[{}]}}"#.utf8)
        let back = try JSONDecoder().decode(Envelope.self, from: data)
        #expect(back.payload == ["a": .object(JSONObject()), "b": [], "c": [.object(JSONObject())]], "\(back.payload.jsonText)")
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data("{}".utf8)) == .object(JSONObject()))
    }

    @Test("numbers JSON cannot hold as Double are an error for Foundation, never a crash")
    func overflowingNumber() throws {
        let envelope = Envelope(id: 1, payload: try JSONValue.parse("1e400"))
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(envelope) }
        #expect(try JSONValue(encoding: envelope).jsonText == #"{"id":1,"payload":1e400}"#)
    }
}
