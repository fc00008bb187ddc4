import Simulation
import StageCore
import StageWorld
import Testing

/// The trace line rendered into bytes is, byte for byte, the line the string interpolation of
/// earlier versions made (the trace hash is XXH3-64 of these bytes), for frames with and without
/// tokens and for text that needs escaping: quotes, backslashes, control characters, non-ASCII.
@Suite("Trace line bytes")
struct TraceLineBytesTests {
    /// The line as earlier versions made it: interpolated text, escaped scalar by scalar.
    static func interpolatedLine(_ event: TraceEvent) -> String {
        "{\"t\":\(event.time.nanoseconds),\"observer\":\(escaped(event.observer)),\"kind\":\"\(event.category)\",\"detail\":\(escaped(event.detail))}\n"
    }

    static func escaped(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static let frames = [
        #"{"type":"pong","n":3}"#,
        "quote \" backslash \\ newline \n tab \t return \r bell \u{07} unit \u{1F} é 日本 🎥",
        #"{"token":"eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJhIn0.c2lnbmF0dXJl","x":"eyJ-not-a-token"}"#,
        "",
    ]

    @Test("every frame kind renders the interpolated line's bytes", arguments: frames)
    func frameKinds(frame: String) {
        let kinds: [TraceEvent.Kind] = [
            .delivered(.pong, frame: frame), .lost(frame: frame), .discarded(frame: frame), .duplicate(frame: frame),
            .heldForOrder(frame: frame), .protocolError(frame: frame, reason: "bad \"json\"\n"),
        ]
        for (offset, kind) in kinds.enumerated() {
            let event = TraceEvent(time: VirtualTime(nanoseconds: UInt64(offset) * 1_234_567_890_123), observer: "view \"0\"\té", kind: kind)
            var bytes: [UInt8] = [1, 2]
            event.appendJSONLine(to: &bytes)
            #expect(Array(bytes.dropFirst(2)) == Array(Self.interpolatedLine(event).utf8))
            #expect(event.jsonLine == Self.interpolatedLine(event))
        }
    }

    @Test("times render in decimal from zero up", arguments: [UInt64(0), 9, 10, 99, 1_000_000_007, UInt64.max])
    func decimalTimes(nanoseconds: UInt64) {
        let event = TraceEvent(time: VirtualTime(nanoseconds: nanoseconds), observer: "server", kind: .lost(frame: "{}"))
        #expect(event.jsonLine == Self.interpolatedLine(event))
    }
}
