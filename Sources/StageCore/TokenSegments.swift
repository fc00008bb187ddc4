/// The three decoded segments of a compact JWS and the ASCII bytes its signature covers (TOK-1, TOK-3).
struct TokenSegments {
    var header: [UInt8]
    var payload: [UInt8]
    var signature: [UInt8]
    var signingInput: [UInt8]

    /// Exactly three non-empty segments of canonical base64url, else malformed (TOK-1).
    static func parse(_ token: String) -> Result<TokenSegments, TokenRejection> {
        let bytes = Array(token.utf8)
        var dots: [Int] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x2E { dots.append(index) }  // "."
            index += 1
        }
        guard dots.count == 2 else { return .failure(.malformed("token has \(dots.count + 1) segments, expected 3")) }
        let ranges = [0..<dots[0], (dots[0] + 1)..<dots[1], (dots[1] + 1)..<bytes.count]
        var decoded: [[UInt8]] = []
        for (name, range) in zip(["header", "payload", "signature"], ranges) {
            guard !range.isEmpty else { return .failure(.malformed("\(name) segment is empty")) }
            guard let segment = Base64URL.decode(bytes, range) else {
                return .failure(.malformed("\(name) segment is not canonical unpadded base64url"))
            }
            decoded.append(segment)
        }
        return .success(TokenSegments(
            header: decoded[0], payload: decoded[1], signature: decoded[2], signingInput: Array(bytes[..<dots[1]])
        ))
    }
}
