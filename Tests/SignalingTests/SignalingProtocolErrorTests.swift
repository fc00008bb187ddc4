import Testing
import Signaling

@Suite("Signaling protocol errors (SIG-8)")
struct SignalingProtocolErrorTests {
    private func failure(_ frame: String) -> SignalingProtocolError? {
        if case .failure(let error) = SignalingMessage.decode(frame: frame) { return error }
        return nil
    }

    @Test("text that is not JSON carries the parse error")
    func notJSON() {
        #expect(failure(#"{"type":"ping""#) == .notJSON(JSONParseError(offset: 14, kind: .unexpectedEnd(expected: "',' or '}'"))))
        #expect(failure("") == .notJSON(JSONParseError(offset: 0, kind: .unexpectedEnd(expected: "a value"))))
    }

    @Test("JSON that is not an object")
    func notAnObject() {
        #expect(failure(#"["type","ping"]"#) == .notAnObject(found: "array"))
        #expect(failure(#""ping""#) == .notAnObject(found: "string"))
        #expect(failure("null") == .notAnObject(found: "null"))
    }

    @Test("missing, mistyped and unknown type")
    func typeMember() {
        #expect(failure(#"{"sdp":"v=0"}"#) == .missingType)
        #expect(failure(#"{"type":7}"#) == .typeNotAString(found: "number"))
        #expect(failure(#"{"type":"hello","x":1}"#) == .unknownType("hello"))
        #expect(failure(#"{"type":"reoffer"}"#) == .unknownType("reoffer"))
        #expect(failure(#"{"type":"Ping"}"#) == .unknownType("Ping"))
    }

    @Test("missing required fields name the field")
    func missingFields() {
        #expect(failure(#"{"type":"offer","sdp":"v=0"}"#) == .missingField(type: "offer", field: "connection_id"))
        #expect(failure(#"{"type":"connect","role":"sendrecv"}"#) == .missingField(type: "connect", field: "channel_id"))
        #expect(failure(#"{"type":"notify"}"#) == .missingField(type: "notify", field: "event_type"))
        #expect(failure(#"{"type":"candidate"}"#) == .missingField(type: "candidate", field: "candidate"))
        #expect(failure(#"{"type":"re-answer"}"#) == .missingField(type: "re-answer", field: "sdp"))
    }

    @Test("wrongly typed fields name the field and the kinds")
    func wrongTypes() {
        #expect(failure(#"{"type":"answer","sdp":5}"#) == .wrongFieldType(type: "answer", field: "sdp", expected: "string", found: "number"))
        #expect(failure(#"{"type":"ping","stats":"yes"}"#) == .wrongFieldType(type: "ping", field: "stats", expected: "bool", found: "string"))
        #expect(failure(#"{"type":"notify","event_type":"connection.created","channel_connections":1.5}"#)
            == .wrongFieldType(type: "notify", field: "channel_connections", expected: "integer", found: "number"))
        #expect(failure(#"{"type":"disconnect","reason":["x"]}"#) == .wrongFieldType(type: "disconnect", field: "reason", expected: "string", found: "array"))
        #expect(failure(#"{"type":"connect","role":null,"channel_id":"c"}"#) == .wrongFieldType(type: "connect", field: "role", expected: "string", found: "null"))
    }

    @Test("a channel connection count is a whole number in 0...1,000,000; 2 and 2.0 read as 2")
    func connectionCounts() {
        func notify(_ count: String) -> String { #"{"type":"notify","event_type":"connection.created","channel_connections":\#(count)}"# }
        let range = SignalingNotify.connectionCountRange
        #expect(failure(notify("-1")) == .outOfRange(type: "notify", field: "channel_connections", value: "-1", range: range))
        #expect(failure(notify("1000001")) == .outOfRange(type: "notify", field: "channel_connections", value: "1000001", range: range))
        #expect(failure(notify("1e400")) == .outOfRange(type: "notify", field: "channel_connections", value: "1e400", range: range))
        #expect(failure(notify("99999999999999999999")) == .outOfRange(type: "notify", field: "channel_connections", value: "99999999999999999999", range: range))
        #expect(failure(notify("2.5")) == .wrongFieldType(type: "notify", field: "channel_connections", expected: "integer", found: "number"))
        for count in ["0", "2", "2.0", "1000000"] {
            guard case .success(.notify(let decoded)) = SignalingMessage.decode(frame: notify(count)) else {
                Issue.record("\(count) did not decode")
                continue
            }
            #expect(decoded.channelConnections == Int(Double(count) ?? -1))
        }
    }

    @Test("every error renders as one descriptive log line")
    func descriptions() {
        let errors: [(SignalingProtocolError, String)] = [
            (.notJSON(JSONParseError(offset: 3, kind: .trailingComma)), "not JSON: JSON parse error at byte 3"),
            (.notAnObject(found: "array"), "is a JSON array, expected an object"),
            (.missingType, #"has no "type""#),
            (.typeNotAString(found: "number"), #""type" is a number"#),
            (.unknownType("hello"), #"unknown signaling message type "hello""#),
            (.missingField(type: "offer", field: "sdp"), #""offer" is missing "sdp""#),
            (.wrongFieldType(type: "answer", field: "sdp", expected: "string", found: "number"), #"field "sdp" is a number, expected string"#),
            (.outOfRange(type: "notify", field: "channel_connections", value: "-1", range: 0...9), #"field "channel_connections" is -1, outside 0...9"#),
            (.binaryFrame(byteCount: 4), "binary signaling frame (4 bytes)"),
            (.wrongDirection(type: "connect", side: .client), #""connect" may not arrive at the client"#),
        ]
        for (error, fragment) in errors {
            #expect(error.description.contains(fragment), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }
}
