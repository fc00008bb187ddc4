import Signaling

/// The wire format of stage participant tokens (TOK-2, TOK-3): a compact JWS,
/// `base64url(header).base64url(payload).base64url(signature)`, ES384 over P-384.
/// Header and payload bytes are canonical (sorted keys, no whitespace), so one claims value
/// always gives one payload segment; only the ECDSA signature segment varies between signings.
public enum TokenCodec {
    /// The claims of `token` without checking its key or signature, for trace summaries (TOK-2).
    /// Nil when the token is malformed: the same structure and payload checks as verification.
    public static func decodeUnverified(_ token: String) -> TokenClaims? {
        guard case .success(let segments) = TokenSegments.parse(token),
              case .success(let claims) = claims(fromPayload: segments.payload) else { return nil }
        return claims
    }

    /// The header's `kid` without checking the key or signature, for trace summaries (TOK-3);
    /// nil when the token or its header is malformed.
    public static func keyIdUnverified(_ token: String) -> String? {
        guard case .success(let segments) = TokenSegments.parse(token),
              case .success(let keyId) = keyId(fromHeader: segments.header) else { return nil }
        return keyId
    }

    /// The canonical header JSON: `{"alg":"ES384","kid":"<keyId>","typ":"JWT"}` (TOK-3).
    static func headerJSON(keyId: String) -> [UInt8] {
        Array(JSONValue.object(["alg": "ES384", "kid": .string(keyId), "typ": "JWT"]).jsonText.utf8)
    }

    /// The canonical payload JSON with the TOK-2 field names, keys sorted, no whitespace.
    static func payloadJSON(_ claims: TokenClaims) -> [UInt8] {
        let attributes = claims.attributes.pairs.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        let payload: JSONObject = [
            "attributes": .object(JSONObject(attributes.map { ($0.key, JSONValue.string($0.value)) })),
            "capabilities": ["allow_publish": .bool(claims.capabilities.canPublish), "allow_subscribe": .bool(claims.capabilities.canSubscribe)],
            "events_url": .string(claims.eventsURL),
            "exp": .number(JSONNumber(claims.expiresAtSeconds)), "iat": .number(JSONNumber(claims.issuedAtSeconds)),
            "jti": .string(claims.participantId), "resource": .string(claims.resource), "topic": .string(claims.topic),
            "user_id": .string(claims.userId), "whip_url": .string(claims.whipURL),
        ]
        return Array(JSONValue.object(payload).jsonText.utf8)
    }

    /// A JSON object read strictly from untrusted bytes: valid UTF-8, no duplicate keys, bounded
    /// depth (the shared Signaling parser); nil otherwise.
    static func jsonObject(_ bytes: [UInt8]) -> JSONObject? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return (try? JSONValue.parse(text))?.objectValue
    }

    /// The key id of a header that asks for ES384; malformed otherwise (TOK-1, TOK-3).
    static func keyId(fromHeader bytes: [UInt8]) -> Result<String, TokenRejection> {
        guard let fields = jsonObject(bytes) else { return .failure(.malformed("header is not a JSON object")) }
        guard let algorithm = fields["alg"]?.stringValue else { return .failure(.malformed("header has no string `alg`")) }
        guard algorithm == "ES384" else { return .failure(.malformed("header alg \(quoted(algorithm)) is not ES384")) }
        guard let keyId = fields["kid"]?.stringValue else { return .failure(.malformed("header has no string `kid`")) }
        return .success(keyId)
    }

    /// The claims of a payload: every TOK-2 field present with its JSON type, integers in
    /// `0...UInt64.max` written as plain digits, a valid `jti`, attributes within 1 KB.
    static func claims(fromPayload bytes: [UInt8]) -> Result<TokenClaims, TokenRejection> {
        guard let fields = jsonObject(bytes) else {
            return .failure(.malformed("payload is not a JSON object"))
        }
        let payload = PayloadFields(fields: fields, context: "payload")
        do throws(TokenRejection) {
            let capabilities = PayloadFields(fields: try payload.object("capabilities"), context: "capabilities")
            let attributeFields = try payload.object("attributes")
            let attributeKeys = attributeFields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let attributes = PayloadFields(fields: attributeFields, context: "attributes")
            let claims = TokenClaims(
                topic: try payload.string("topic"), resource: try payload.string("resource"),
                participantId: try payload.string("jti"), whipURL: try payload.string("whip_url"),
                eventsURL: try payload.string("events_url"),
                attributes: Attributes(try attributeKeys.map { key throws(TokenRejection) in (key, try attributes.string(key)) }),
                capabilities: Capabilities(
                    canPublish: try capabilities.bool("allow_publish"), canSubscribe: try capabilities.bool("allow_subscribe")
                ),
                userId: try payload.string("user_id"),
                issuedAtSeconds: try payload.integer("iat"), expiresAtSeconds: try payload.integer("exp")
            )
            guard TokenClaims.isValidParticipantId(claims.participantId) else {
                return .failure(.malformed("jti \(quoted(claims.participantId)) is not [A-Za-z0-9_-]+"))
            }
            let size = claims.attributes.byteCount
            guard size <= TokenClaims.attributesByteLimit else {
                return .failure(.malformed("attributes are \(size) bytes, over the \(TokenClaims.attributesByteLimit)-byte limit"))
            }
            return .success(claims)
        } catch {
            return .failure(error)
        }
    }

    /// An untrusted string for a rejection reason: JSON-quoted and cut to 96 characters.
    public static func quoted(_ text: String) -> String {
        JSONValue.string(text.count > 96 ? String(text.prefix(96)) + "…" : text).jsonText
    }
}

/// The typed fields of one JSON object of a payload (TOK-2); each accessor names the field it rejects.
private struct PayloadFields {
    let fields: JSONObject
    let context: String

    private func value(_ name: String) throws(TokenRejection) -> JSONValue {
        guard let value = fields[name] else { throw .malformed("\(context) field \(TokenCodec.quoted(name)) is missing") }
        return value
    }

    func string(_ name: String) throws(TokenRejection) -> String {
        guard case .string(let text) = try value(name) else { throw .malformed("\(context) field \(TokenCodec.quoted(name)) is not a string") }
        return text
    }

    func bool(_ name: String) throws(TokenRejection) -> Bool {
        guard case .bool(let flag) = try value(name) else { throw .malformed("\(context) field \(TokenCodec.quoted(name)) is not a boolean") }
        return flag
    }

    func object(_ name: String) throws(TokenRejection) -> JSONObject {
        guard case .object(let members) = try value(name) else { throw .malformed("\(context) field \(TokenCodec.quoted(name)) is not an object") }
        return members
    }

    /// Plain digits only: no sign, fraction or exponent, and no overflow past UInt64.max.
    func integer(_ name: String) throws(TokenRejection) -> UInt64 {
        guard case .number(let number) = try value(name) else { throw .malformed("\(context) field \(TokenCodec.quoted(name)) is not a number") }
        let literal = number.text
        guard literal.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let integer = UInt64(literal) else {
            throw .malformed("\(context) field \(TokenCodec.quoted(name)) is \(TokenCodec.quoted(literal)), not an integer in 0...\(UInt64.max)")
        }
        return integer
    }
}
