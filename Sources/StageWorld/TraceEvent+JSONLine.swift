/// The trace file's bytes, written straight into a byte buffer the caller reuses: no
/// intermediate strings for the line's frame, keys or numbers.
extension TraceEvent {
    /// Appends the canonical JSON line of this event to `bytes`: fixed key order, no
    /// whitespace, escaped strings, ending in `\n`. A trace file is these lines; the trace
    /// hash is XXH3-64 of the file.
    public func appendJSONLine(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"t":"#.utf8)
        JSONBytes.appendDecimal(time.nanoseconds, to: &bytes)
        bytes.append(contentsOf: #","observer":"#.utf8)
        JSONBytes.appendString(observer.utf8, to: &bytes)
        bytes.append(contentsOf: #","kind":""#.utf8)
        bytes.append(contentsOf: category.utf8)
        bytes.append(contentsOf: #"","detail":"#.utf8)
        appendDetail(to: &bytes)
        bytes.append(contentsOf: "}\n".utf8)
    }

    /// `detail` as a JSON string. A frame without a token (most of them) is escaped from its
    /// own bytes behind its fixed prefix, as `detail` would show it.
    private func appendDetail(to bytes: inout [UInt8]) {
        let frame: String? = switch kind {
        case .delivered(_, let frame), .lost(let frame), .discarded(let frame), .duplicate(let frame), .heldForOrder(let frame): frame
        default: nil
        }
        guard let frame, !TraceText.containsTokenStart(frame) else {
            return JSONBytes.appendString(detail.utf8, to: &bytes)
        }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: framePrefix.utf8)
        JSONBytes.appendEscaped(frame.utf8, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }
}

/// JSON text as UTF-8 bytes, the same bytes `TraceText.json` and decimal interpolation make.
enum JSONBytes {
    /// Appends `value` in decimal.
    static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        guard value >= 10 else { return bytes.append(UInt8(ascii: "0") + UInt8(value)) }
        appendDecimal(value / 10, to: &bytes)
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Appends `text` as a JSON string literal, quoted.
    static func appendString(_ text: String.UTF8View, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `text` escaped for a JSON string: quotes, backslashes and control characters.
    /// Every byte of a multi-byte UTF-8 sequence is 0x80 or above, so escaping byte by byte
    /// escapes exactly the scalars `TraceText.json` escapes.
    static func appendEscaped(_ text: String.UTF8View, to bytes: inout [UInt8]) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
            case ..<0x20:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0xF))
            default: bytes.append(byte)
            }
        }
    }

    /// A lowercase hexadecimal digit, as `String(_:radix: 16)` writes it.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
