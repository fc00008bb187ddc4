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
        JSONBytes.appendString(observer, to: &bytes)
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
            return JSONBytes.appendString(detail, to: &bytes)
        }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: framePrefix.utf8)
        JSONBytes.appendEscaped(frame, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }
}

/// JSON text as UTF-8 bytes, the same bytes `TraceText.json` and decimal interpolation make.
enum JSONBytes {
    /// Appends `value` in decimal.
    static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        // UInt64.max has 20 digits; they are made last first, from the buffer's end.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value, first = digits.count
            repeat {
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[first...]))
        }
    }

    /// Appends `text` as a JSON string literal, quoted.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `text` escaped for a JSON string: quotes, backslashes and control characters.
    /// Every byte of a multi-byte UTF-8 sequence is 0x80 or above, so escaping byte by byte
    /// escapes exactly the scalars `TraceText.json` escapes.
    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendEscaped($0, to: &bytes) }
    }

    /// `appendEscaped` on contiguous bytes: each run of bytes that need no escape is copied
    /// whole, then the escape of the byte that ends it.
    private static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var runStart = 0
        for position in text.indices where needsEscape(text[position]) {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<position]))
            appendEscape(of: text[position], to: &bytes)
            runStart = position + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func appendEscape(of byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
        case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
        case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
        case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
        default:
            bytes.append(contentsOf: #"\u00"#.utf8)
            bytes.append(hexDigit(byte >> 4))
            bytes.append(hexDigit(byte & 0xF))
        }
    }

    /// A lowercase hexadecimal digit, as `String(_:radix: 16)` writes it.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
