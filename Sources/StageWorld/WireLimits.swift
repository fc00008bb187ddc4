import StageCore

/// The ranges the numbers of a stage frame must lie in (SIG-8): a frame with a number outside
/// its range, or one that is not a plain decimal integer, is a protocol error when it is
/// decoded, so nothing downstream ever computes with it. The ranges are wider than anything a
/// publisher's `VideoConfiguration` produces under LST-3's default limits (720p, 30 fps,
/// 2.5 Mbps, two layers) and small enough that any product or sum of them fits an `Int`.
public enum WireLimits {
    /// A video side or a simulcast layer's height, in pixels: 1...8192 (8K).
    public static let sidePixels: ClosedRange<Int> = 1...8_192
    /// A publisher's frame rate: 1...240 fps.
    public static let framesPerSecond: ClosedRange<Int> = 1...240
    /// A simulcast layer's bitrate: 1 bps...1 Gbps.
    public static let layerBitsPerSecond: ClosedRange<Int> = 1...1_000_000_000
    /// Simulcast layers one publisher announces: 1...3 (LST-4: up to 3).
    public static let layerCount: ClosedRange<Int> = 1...3
    /// A stream's creation time (SUB-7), virtual nanoseconds: any non-negative `Int`.
    public static let creationTimeNanoseconds: ClosedRange<Int> = 0...Int.max
    /// A stream's number among its publisher's streams (SUB-7 `streamId`): any non-negative
    /// `Int`, 0 for a participant that has no stream (it has not published).
    public static let streamNumber: ClosedRange<Int> = 0...Int.max

    /// Reads a number of an SDP line: ASCII digits only (no sign, no spaces), within `range`.
    static func sdpNumber(_ text: Substring, _ name: String, in range: ClosedRange<Int>) throws(FrameError) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw FrameError("\(name) \(TokenCodec.quoted(String(text))) is not a decimal number")
        }
        guard let value = Int(text), range.contains(value) else { throw outOfRange(name, String(text), range) }
        return value
    }

    static func outOfRange(_ name: String, _ text: String, _ range: ClosedRange<Int>) -> FrameError {
        FrameError("\(name) \(text.prefix(40)) is outside \(range)")
    }
}
