import Signaling

/// Parses or returns nil, for tests that only need the value.
func parsed(_ text: String) -> JSONValue? { try? JSONValue.parse(text) }

/// Byte-for-byte comparison: Swift's `==` on String uses canonical equivalence.
func sameBytes(_ lhs: String, _ rhs: String) -> Bool { Array(lhs.utf8) == Array(rhs.utf8) }

/// The parse error for `text`, or nil when it parses.
func parseError(_ text: String) -> JSONParseError? {
    do {
        _ = try JSONValue.parse(text)
        return nil
    } catch {
        return error
    }
}

/// `depth` nested arrays around `inner`: `[[...inner...]]`.
func nestedArrays(_ depth: Int, inner: String = "") -> String {
    String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
}
