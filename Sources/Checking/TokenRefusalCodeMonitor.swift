import Foundation
import Signaling
import Simulation
import StageCore
import StageWorld

/// TOK-1: the stage service refuses a token with the code of its defect. Malformed (its
/// structure, header or payload, TOK-2) -> TOKEN_MALFORMED; signed by a key the service does
/// not trust (unknown or revoked) or with a signature that does not verify ->
/// TOKEN_NOT_ALLOWED; expired on the virtual clock (`exp <= now`, whole seconds) ->
/// TOKEN_EXPIRED; for another stage or resource -> TOKEN_NOT_ALLOWED (ext). The spec orders
/// none of them; the service's order is kept: nothing in a payload counts before its
/// signature verifies, and an expired token is expired whichever stage it names. An exchange
/// refused with a token free of these defects is refused for TOK-3 or TOK-4, with
/// TOKEN_NOT_ALLOWED; a join has no other reason to be refused. The token is the one the
/// step delivered to the service, classified here with the service's key ring and the
/// step's clock, not through the service's verification (`TokenKeyRing.verify`,
/// `TokenRejection.code`), so a wrong code in the model is a disagreement it sees; the
/// payload's TOK-2 shape (its fields and types, the `jti` alphabet, attributes within 1 KB)
/// is read here too, not through `TokenCodec`, so a valid token refused as malformed is one.
/// The payload's JSON is read with the stage's reader, and a payload it refuses is read again
/// with Foundation's `JSONSerialization`: a JSON object by that independent reader that the
/// stage's reader refuses, for a fault of grammar (RFC 8259), is a misread, not a malformed
/// token (the stage's refusals beyond the grammar, duplicate keys, lone surrogates and nesting
/// past the depth limit, stand, and so does a trailing comma, which `JSONSerialization` lets
/// through).
public struct TokenRefusalCodeMonitor: InvariantMonitor {
    public var name: String { "refusals-name-the-token-defect" }
    public var summary: String { "a join or exchange the service refuses carries the TOK-1 code of its token's defect: malformed, not allowed or expired" }
    public var rules: [String] { ["TOK-1"] }
    /// The token of the join or exchange the current step delivered to the service; nil
    /// between steps.
    private var token: String?

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard event.observer == "server" else { return [] }
        switch event.kind {
        case .delivered(.join(let token, _), _), .delivered(.exchangeToken(let token), _):
            self.token = token
        case .service(.refused(let operation, let error, _)):
            guard let token else { return [] }
            if error.code == .tokenMalformed, let misread = Self.misreadPayload(of: token) {
                return [violation(event, index: index, "the service refused the \(operation) as malformed, but the token's payload is a JSON object (Foundation's JSONSerialization reads it) that the stage's JSON reader refuses: \(misread)")]
            }
            let nowSeconds = event.time.nanoseconds / 1_000_000_000
            let defect = Self.defect(of: token, keyRing: world.config.keyRing, nowSeconds: nowSeconds, stage: world.config.stageId, resource: world.config.resource)
            if let defect, defect.code != error.code {
                return [violation(event, index: index, "the service refused the \(operation) with \(error.code.name), but the token \(defect.what): \(defect.code.name)")]
            }
            if defect == nil && (operation != "exchangeToken" || error.code != .tokenNotAllowed) {
                return [violation(event, index: index, "the service refused the \(operation) with \(error.code.name), but the token has no TOK-1 defect")]
            }
        default:
            break
        }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        token = nil
        return []
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: the token it holds is emptied at the end of the step that delivered it.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}

extension TokenRefusalCodeMonitor {
    /// The TOK-1 code `token` calls for when joining `stage` at `nowSeconds`, with what is
    /// wrong with it, or nil when nothing is: the monitor's own copy of the rule. The payload's
    /// TOK-2 shape is read here too (`payload(of:)`), not through `TokenCodec`.
    static func defect(
        of token: String, keyRing: TokenKeyRing, nowSeconds: UInt64, stage: String, resource: String
    ) -> (code: StageErrorCode, what: String)? {
        guard let keyId = TokenCodec.keyIdUnverified(token) else { return (.tokenMalformed, "is not a JWS with an ES384 header") }
        guard let key = keyRing.key(withId: keyId) else { return (.tokenNotAllowed, "names a key the service does not trust") }
        guard signatureVerifies(token, with: key) else { return (.tokenNotAllowed, "has a signature that does not verify") }
        let claims: PayloadClaims
        switch payload(of: token) {
        case .failure(let problem): return (.tokenMalformed, "has a malformed payload: \(problem.text)")
        case .success(let read): claims = read
        }
        if claims.expiresAtSeconds <= nowSeconds { return (.tokenExpired, "expired at \(claims.expiresAtSeconds) s and it is \(nowSeconds) s") }
        if claims.topic != stage || claims.resource != resource { return (.tokenNotAllowed, "is for another stage") }
        return nil
    }

    /// The payload fields a verdict needs.
    struct PayloadClaims {
        var topic: String
        var resource: String
        var expiresAtSeconds: UInt64
    }

    struct PayloadProblem: Error {
        var text: String
    }

    /// TOK-2, read here from the token's payload segment: a JSON object with the string fields
    /// `topic`, `resource`, `jti`, `whip_url`, `events_url` and `user_id`; an `attributes`
    /// object whose values are strings, keys and values together at most 1,024 bytes of UTF-8;
    /// a `capabilities` object with the booleans `allow_publish` and `allow_subscribe`; `iat`
    /// and `exp` as whole numbers of seconds written as plain digits (0...UInt64.max); and a
    /// `jti` of one or more `[A-Za-z0-9_-]`.
    static func payload(of token: String) -> Result<PayloadClaims, PayloadProblem> {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let bytes = Base64URL.decode(Array(segments[1].utf8)),
              let text = String(validating: bytes, as: UTF8.self),
              let object = (try? JSONValue.parse(text))?.objectValue else { return .failure(PayloadProblem(text: "not a JSON object")) }
        for name in ["topic", "resource", "jti", "whip_url", "events_url", "user_id"] where object[name]?.stringValue == nil {
            return .failure(PayloadProblem(text: "no string `\(name)`"))
        }
        func seconds(_ name: String) -> UInt64? {
            guard let digits = object[name]?.numberValue?.text, !digits.isEmpty,
                  digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            return UInt64(digits)
        }
        guard let expiresAt = seconds("exp"), seconds("iat") != nil else { return .failure(PayloadProblem(text: "`iat` or `exp` is not a whole number of seconds")) }
        guard let capabilities = object["capabilities"]?.objectValue,
              capabilities["allow_publish"]?.boolValue != nil, capabilities["allow_subscribe"]?.boolValue != nil else {
            return .failure(PayloadProblem(text: "`capabilities` lacks a boolean `allow_publish` or `allow_subscribe`"))
        }
        guard let attributes = object["attributes"]?.objectValue else { return .failure(PayloadProblem(text: "no object `attributes`")) }
        var size = 0
        for member in attributes.members {
            guard let value = member.value.stringValue else { return .failure(PayloadProblem(text: "attribute `\(member.key)` is not a string")) }
            size += member.key.utf8.count + value.utf8.count
        }
        guard size <= 1_024 else { return .failure(PayloadProblem(text: "attributes are \(size) bytes, over 1,024")) }
        let jti = object["jti"]?.stringValue ?? ""
        let jtiAllowed = jti.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
        }
        guard !jti.isEmpty, jtiAllowed else { return .failure(PayloadProblem(text: "jti \(jti) is not [A-Za-z0-9_-]+")) }
        guard let topic = object["topic"]?.stringValue, let resource = object["resource"]?.stringValue else {
            return .failure(PayloadProblem(text: "no string `topic` or `resource`"))
        }
        return .success(PayloadClaims(topic: topic, resource: resource, expiresAtSeconds: expiresAt))
    }

    /// The stage's JSON reader's error for `token`'s payload when an independent reader
    /// (Foundation's `JSONSerialization`) reads that payload as a JSON object and the error is
    /// one of grammar; nil when the stage's reader reads it, or both refuse it, or the stage's
    /// reader refuses it for a rule beyond RFC 8259 or for a trailing comma (which
    /// `JSONSerialization` accepts).
    static func misreadPayload(of token: String) -> JSONParseError? {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let bytes = Base64URL.decode(Array(segments[1].utf8)) else { return nil }
        do {
            _ = try JSONValue.parse(utf8: bytes)
            return nil
        } catch {
            switch error.kind {
            case .duplicateKey, .loneSurrogate, .depthLimitExceeded, .trailingComma: return nil
            default: break
            }
            guard (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] else { return nil }
            return error
        }
    }

    /// Whether the token's last segment is an ES384 signature of the rest by `key`.
    private static func signatureVerifies(_ token: String, with key: TokenVerifyingKey) -> Bool {
        let bytes = Array(token.utf8)
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), let signature = Base64URL.decode(Array(bytes[(dot + 1)...])) else { return false }
        return key.isValidSignature(signature, for: Array(bytes[..<dot]))
    }
}
