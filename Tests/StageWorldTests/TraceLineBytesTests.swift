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

    /// Text drawn from pieces that sit at the edges of an escaped run or of a token's start:
    /// escapes first, last and back to back, `eyJ` split or cut short at the end.
    static func drawnText(_ generator: inout SplitMix64) -> String {
        let pieces = ["a", "\"", "\\", "\n", "\u{01}", "\u{1F}", "é", "🎥", "e", "y", "J", "ey", "eyJ", "eeyJ", "eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiJhIn0.c2ln"]
        return (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    @Test("property: 2,000 drawn frames render the interpolated line's bytes (fixed seed)")
    func drawnFrames() {
        var generator = SplitMix64(seed: 19)
        for _ in 0..<2_000 {
            let frame = Self.drawnText(&generator)
            let event = TraceEvent(time: VirtualTime(nanoseconds: 5), observer: "server", kind: .delivered(.pong, frame: frame))
            var bytes: [UInt8] = []
            event.appendJSONLine(to: &bytes)
            #expect(bytes == Array(Self.interpolatedLine(event).utf8), "frame \(Self.escaped(frame))")
        }
    }

    @Test("times render in decimal from zero up", arguments: [UInt64(0), 9, 10, 99, 1_000_000_007, UInt64.max])
    func decimalTimes(nanoseconds: UInt64) {
        let event = TraceEvent(time: VirtualTime(nanoseconds: nanoseconds), observer: "server", kind: .lost(frame: "{}"))
        #expect(event.jsonLine == Self.interpolatedLine(event))
    }
}
