import Crypto
import Simulation
import Testing
@testable import StageCore

private extension SplitMix64 {
    mutating func element<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Keys, claims and helpers shared by the token tests.
private enum Fixture {
    static let stage = "stage-A1"
    static let resource = "arn:aws:ivs:us-west-2:123456789012:stage/A1"
    static let now: UInt64 = 1_000
    static let app = TokenSigningKey(keyId: "app-key-1", origin: .keyPair, seed: 2024)
    static let service = TokenSigningKey(keyId: "service-key", origin: .service, seed: 2024)
    static let ring = TokenKeyRing([app.verifyingKey, service.verifyingKey])
    static let claims = TokenClaims(
        topic: stage, resource: resource, participantId: "alice_01-x",
        whipURL: "https://global.whip.live-video.net", eventsURL: "wss://global.events.live-video.net/a/b",
        attributes: ["name": "Alice \"A\" \\ ü", "emoji": "🎤", "ctl": "a\nb\t\u{1}c"],
        capabilities: Capabilities(canPublish: true, canSubscribe: false), userId: "user-42",
        issuedAtSeconds: 100, expiresAtSeconds: 3_700
    )

    static func claims(_ change: (inout TokenClaims) -> Void) -> TokenClaims {
        var copy = claims
        change(&copy)
        return copy
    }

    static func verify(
        _ token: String, ring: TokenKeyRing = ring, now: UInt64 = now, topic: String = stage, resource: String = resource
    ) -> Result<VerifiedToken, TokenRejection> {
        ring.verify(token, nowSeconds: now, topic: topic, resource: resource)
    }

    static func rejection(_ token: String, ring: TokenKeyRing = ring, now: UInt64 = now) -> TokenRejection? {
        if case .failure(let rejection) = verify(token, ring: ring, now: now) { rejection } else { nil }
    }

    static func segments(_ token: String) -> [String] { token.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    static var headerText: String { String(decoding: TokenCodec.headerJSON(keyId: app.keyId), as: UTF8.self) }

    static var payloadText: String { String(decoding: TokenCodec.payloadJSON(claims), as: UTF8.self) }

    static func b64(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }

    /// A token whose header and payload are exactly these bytes, signed by `key` (default: app).
    static func signed(header: String = headerText, payload: [UInt8], key: TokenSigningKey = app) -> String {
        key.sign(header: Array(header.utf8), payload: payload)
    }

    static func signed(header: String = headerText, payload: String, key: TokenSigningKey = app) -> String {
        signed(header: header, payload: Array(payload.utf8), key: key)
    }

    /// The canonical payload text with one substring replaced (which must occur).
    static func payload(replacing target: String, with replacement: String) -> String {
        if !payloadText.contains(target) { Issue.record("fixture payload lacks \(target)") }
        return payloadText.replacingOccurrences(target, replacement)
    }
}

private extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// Malformed tokens (TOK-1 -> TOKEN_MALFORMED), each with a fragment its reason must contain.
enum MalformedTokenCase: String, CaseIterable, Sendable {
    case garbage, twoSegments, fourSegments, emptySegment, base64Alphabet, base64Padding, base64NonCanonicalBits
    case base64LengthOneMod4, headerNotJSON, headerArray, algNone, algHS256, kidMissing, kidNotString
    case payloadNotJSON, payloadArray, payloadTrailingGarbage, payloadInvalidUTF8, payloadLoneSurrogate
    case payloadDuplicateKey, payloadDeepNesting, missingExp, missingAllowPublish, missingAttributes
    case expString, expFloat, expExponent, expNegative, iatNegativeZero, expOverflow, expHugeLiteral
    case capabilityNumber, attributeValueNumber, attributesArray, jtiWithSpace, jtiEmpty, jtiNonASCII, attributesOver1KB

    var token: String {
        let valid = Fixture.app.sign(Fixture.claims)
        let parts = Fixture.segments(valid)
        switch self {
        case .garbage: return "garbage"
        case .twoSegments: return parts[0] + "." + parts[1]
        case .fourSegments: return valid + "." + parts[2]
        case .emptySegment: return parts[0] + ".." + parts[2]
        case .base64Alphabet: return parts[0] + ".+" + parts[1].dropFirst() + "." + parts[2]
        case .base64Padding: return parts[0] + "." + parts[1] + "==." + parts[2]
        case .base64NonCanonicalBits:
            // A header of 3k+1 bytes ends in two characters whose last 4 bits are unused; set one.
            var header = Fixture.headerText
            while header.utf8.count % 3 != 1 { header += " " }
            let signed = Fixture.segments(Fixture.signed(header: header, payload: Fixture.payloadText))
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            let last = signed[0].last.flatMap { alphabet.firstIndex(of: $0) } ?? 0
            return String(signed[0].dropLast()) + String(alphabet[last ^ 1]) + "." + signed[1] + "." + signed[2]
        case .base64LengthOneMod4:
            var payload = parts[1]
            while payload.count % 4 != 1 { payload += "A" }
            return parts[0] + "." + payload + "." + parts[2]
        case .headerNotJSON: return Fixture.b64("{alg") + "." + parts[1] + "." + parts[2]
        case .headerArray: return Fixture.b64(#"["ES384","app-key-1"]"#) + "." + parts[1] + "." + parts[2]
        case .algNone: return Fixture.signed(header: #"{"alg":"none","kid":"app-key-1"}"#, payload: Fixture.payloadText)
        case .algHS256: return Fixture.signed(header: #"{"alg":"HS256","kid":"app-key-1"}"#, payload: Fixture.payloadText)
        case .kidMissing: return Fixture.signed(header: #"{"alg":"ES384","typ":"JWT"}"#, payload: Fixture.payloadText)
        case .kidNotString: return Fixture.signed(header: #"{"alg":"ES384","kid":1}"#, payload: Fixture.payloadText)
        case .payloadNotJSON: return Fixture.signed(payload: #"{"topic":"#)
        case .payloadArray: return Fixture.signed(payload: "[]")
        case .payloadTrailingGarbage: return Fixture.signed(payload: Fixture.payloadText + "x")
        case .payloadInvalidUTF8:
            let bytes = Array(Fixture.payload(replacing: "user-42", with: "user-\u{1}").utf8)
            return Fixture.signed(payload: bytes.map { $0 == 0x01 ? 0xFF : $0 })
        case .payloadLoneSurrogate: return Fixture.signed(payload: Fixture.payload(replacing: "user-42", with: #"\ud800"#))
        case .payloadDuplicateKey: return Fixture.signed(payload: Fixture.payload(replacing: #""exp":3700"#, with: #""exp":3700,"exp":9999"#))
        case .payloadDeepNesting:
            let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
            return Fixture.signed(payload: Fixture.payload(replacing: #""attributes":{"#, with: #""junk":\#(deep),"attributes":{"#))
        case .missingExp: return Fixture.signed(payload: Fixture.payload(replacing: #""exp":3700,"#, with: ""))
        case .missingAllowPublish: return Fixture.signed(payload: Fixture.payload(replacing: #""allow_publish":true,"#, with: ""))
        case .missingAttributes:
            return Fixture.signed(payload: Fixture.payload(replacing: #""attributes":{"#, with: #""attrs":{"#))
        case .expString: return Fixture.signed(payload: Fixture.payload(replacing: #""exp":3700"#, with: #""exp":"3700""#))
        case .expFloat: return Fixture.signed(payload: Fixture.payload(replacing: #""exp":3700"#, with: #""exp":3700.0"#))
        case .expExponent: return Fixture.signed(payload: Fixture.payload(replacing: #""exp":3700"#, with: #""exp":37e2"#))
        case .expNegative: return Fixture.signed(payload: Fixture.payload(replacing: #""exp":3700"#, with: #""exp":-1"#))
        case .iatNegativeZero: return Fixture.signed(payload: Fixture.payload(replacing: #""iat":100"#, with: #""iat":-0"#))
        case .expOverflow:
            return Fixture.signed(payload: Fixture.payload(replacing: #""exp":3700"#, with: #""exp":18446744073709551616"#))
        case .expHugeLiteral:
            return Fixture.signed(payload: Fixture.payload(replacing: #""exp":3700"#, with: #""exp":\#(String(repeating: "9", count: 400))"#))
        case .capabilityNumber:
            return Fixture.signed(payload: Fixture.payload(replacing: #""allow_publish":true"#, with: #""allow_publish":1"#))
        case .attributeValueNumber:
            return Fixture.signed(payload: Fixture.payload(replacing: #""attributes":{"#, with: #""attributes":{"n":1,"#))
        case .attributesArray:
            let empty = String(decoding: TokenCodec.payloadJSON(Fixture.claims { $0.attributes = [:] }), as: UTF8.self)
            return Fixture.signed(payload: empty.replacingOccurrences(#""attributes":{}"#, #""attributes":[]"#))
        case .jtiWithSpace: return Fixture.app.sign(Fixture.claims { $0.participantId = "alice 1" })
        case .jtiEmpty: return Fixture.app.sign(Fixture.claims { $0.participantId = "" })
        case .jtiNonASCII: return Fixture.app.sign(Fixture.claims { $0.participantId = "alicé" })
        case .attributesOver1KB:
            return Fixture.app.sign(Fixture.claims { $0.attributes = ["k": String(repeating: "v", count: 1_024)] })
        }
    }

    /// What the rejection reason must mention, so each case proves which check fired.
    var reasonFragment: String {
        switch self {
        case .garbage, .twoSegments, .fourSegments: "segments, expected 3"
        case .emptySegment: "payload segment is empty"
        case .base64Alphabet, .base64Padding, .base64LengthOneMod4: "payload segment is not canonical"
        case .base64NonCanonicalBits: "header segment is not canonical"
        case .headerNotJSON, .headerArray: "header is not a JSON object"
        case .algNone: #"alg "none" is not ES384"#
        case .algHS256: #"alg "HS256" is not ES384"#
        case .kidMissing, .kidNotString: "no string `kid`"
        case .payloadNotJSON, .payloadArray, .payloadTrailingGarbage, .payloadInvalidUTF8, .payloadLoneSurrogate,
             .payloadDuplicateKey, .payloadDeepNesting: "payload is not a JSON object"
        case .missingExp: #"payload field "exp" is missing"#
        case .missingAllowPublish: #"capabilities field "allow_publish" is missing"#
        case .missingAttributes: #"payload field "attributes" is missing"#
        case .expString: #"payload field "exp" is not a number"#
        case .expFloat: #"field "exp" is "3700.0", not an integer"#
        case .expExponent: #"field "exp" is "37e2", not an integer"#
        case .expNegative: #"field "exp" is "-1", not an integer"#
        case .iatNegativeZero: #"field "iat" is "-0", not an integer"#
        case .expOverflow: #"field "exp" is "18446744073709551616", not an integer"#
        case .expHugeLiteral: #"field "exp" is "\#(String(repeating: "9", count: 96))…", not an integer"#
        case .capabilityNumber: #"capabilities field "allow_publish" is not a boolean"#
        case .attributeValueNumber: #"attributes field "n" is not a string"#
        case .attributesArray: #"payload field "attributes" is not an object"#
        case .jtiWithSpace: #"jti "alice 1" is not"#
        case .jtiEmpty: #"jti "" is not"#
        case .jtiNonASCII: #"jti "alicé" is not"#
        case .attributesOver1KB: "attributes are 1025 bytes, over the 1024-byte limit"
        }
    }
}

@Suite("Signed tokens (TOK-1, TOK-2, TOK-3)")
struct TokenCodecTests {
    @Test("TOK-3: sign then verify gives back the claims, origin and key id for both origins")
    func roundTrip() throws {
        for key in [Fixture.app, Fixture.service] {
            let token = key.sign(Fixture.claims)
            let verified = try Fixture.verify(token).get()
            #expect(verified == VerifiedToken(claims: Fixture.claims, origin: key.origin, keyId: key.keyId))
            #expect(TokenCodec.decodeUnverified(token) == Fixture.claims)
        }
    }

    @Test("TOK-2: header and payload bytes are canonical JSON with the spec's field names, sorted, no whitespace")
    func canonicalBytes() {
        let claims = TokenClaims(
            topic: "t", resource: "r", participantId: "p1", whipURL: "https://w/x", eventsURL: "wss://e",
            attributes: ["b": "2", "a": "\"1\"\n"], capabilities: Capabilities(canPublish: true, canSubscribe: false),
            userId: "u", issuedAtSeconds: 100, expiresAtSeconds: 18_446_744_073_709_551_615
        )
        let parts = Fixture.segments(Fixture.app.sign(claims))
        #expect(Base64URL.decode(Array(parts[0].utf8)).map { String(decoding: $0, as: UTF8.self) }
            == #"{"alg":"ES384","kid":"app-key-1","typ":"JWT"}"#)
        #expect(Base64URL.decode(Array(parts[1].utf8)).map { String(decoding: $0, as: UTF8.self) }
            == #"{"attributes":{"a":"\"1\"\n","b":"2"},"capabilities":{"allow_publish":true,"allow_subscribe":false},"#
            + #""events_url":"wss://e","exp":18446744073709551615,"iat":100,"jti":"p1","resource":"r","topic":"t","#
            + #""user_id":"u","whip_url":"https://w/x"}"#)
        #expect(parts[2].count == 128, "96-byte raw r||s signature")
    }

    @Test("determinism: the payload segment is byte-identical across signings and across keys from the same seed")
    func deterministicPayload() {
        let again = TokenSigningKey(keyId: "app-key-1", origin: .keyPair, seed: 2024)
        let tokens = [Fixture.app.sign(Fixture.claims), Fixture.app.sign(Fixture.claims), again.sign(Fixture.claims)]
        let parts = tokens.map(Fixture.segments)
        #expect(Set(parts.map { $0[0] }).count == 1)
        #expect(Set(parts.map { $0[1] }).count == 1)
        #expect(again.verifyingKey == Fixture.app.verifyingKey)
        #expect(again.verifyingKey.x963Representation.count == 97)
        for token in tokens { #expect(throws: Never.self) { try Fixture.verify(token).get() } }
    }

    @Test("every signature verifies with the crypto library itself (no cached verdict), for keys and claims drawn from seeds, and a token is the same at every signing")
    func signaturesVerifyWithTheLibrary() throws {
        var random = SplitMix64(seed: 18)
        for _ in 0..<40 {
            let key = TokenSigningKey(keyId: "key-\(random.below(1000))", origin: .keyPair, seed: random.next())
            let claims = Fixture.claims { $0.participantId = "p\(random.next())"; $0.expiresAtSeconds = 3_700 + random.next() % 10_000 }
            let token = key.sign(claims)
            #expect(token == key.sign(claims))
            let parts = Fixture.segments(token)
            let signature = try #require(Base64URL.decode(Array(parts[2].utf8)))
            let publicKey = try P384.Signing.PublicKey(x963Representation: key.verifyingKey.x963Representation)
            let ecdsa = try P384.Signing.ECDSASignature(rawRepresentation: signature)
            #expect(publicKey.isValidSignature(ecdsa, for: Array((parts[0] + "." + parts[1]).utf8)))
            #expect(!publicKey.isValidSignature(ecdsa, for: Array((parts[0] + "." + parts[1] + "x").utf8)))
        }
    }

    @Test("different seeds or key ids give different public keys")
    func keysDiffer() {
        let keys = [
            TokenSigningKey(keyId: "app-key-1", origin: .keyPair, seed: 2024),
            TokenSigningKey(keyId: "app-key-1", origin: .keyPair, seed: 2025),
            TokenSigningKey(keyId: "app-key-2", origin: .keyPair, seed: 2024),
            TokenSigningKey(keyId: "app-key-1", origin: .keyPair, seed: 0),
        ]
        #expect(Set(keys.map(\.verifyingKey.x963Representation)).count == keys.count)
        #expect(TokenVerifyingKey(keyId: "x", origin: .keyPair, x963Representation: keys[0].verifyingKey.x963Representation) != nil)
        #expect(TokenVerifyingKey(keyId: "x", origin: .keyPair, x963Representation: [4] + Array(repeating: 1, count: 96)) == nil)
    }

    @Test("base64url decodes only canonical unpadded text")
    func strictBase64() {
        for length in 0...12 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 201) }
            #expect(Base64URL.decode(Array(Base64URL.encode(bytes).utf8)) == bytes)
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode(Array("QQ".utf8)) == [0x41])
        for bad in ["QR", "QUF", "Q", "QUJDR", "QQ==", "Q+", "Q/", "Q Q", "QQé"] {
            #expect(Base64URL.decode(Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test("TOK-1: malformed tokens are TOKEN_MALFORMED with a reason naming the failed check", arguments: MalformedTokenCase.allCases)
    func malformed(_ malformed: MalformedTokenCase) throws {
        let token = malformed.token
        let rejection = try #require(Fixture.rejection(token))
        #expect(rejection.stageError == StageError(code: .tokenMalformed, category: .join, isFatal: true))
        #expect(rejection.reason.contains(malformed.reasonFragment), "\(rejection.reason)")
        if case .malformed = rejection {} else { Issue.record("expected .malformed, got \(rejection)") }
    }

    @Test("TOK-2: attributes of exactly 1024 bytes are accepted")
    func attributesAtLimit() throws {
        let claims = Fixture.claims { $0.attributes = ["k": String(repeating: "v", count: 1_023)] }
        #expect(try Fixture.verify(Fixture.app.sign(claims)).get().claims == claims)
    }

    @Test("TOK-1: exp == now and exp < now are TOKEN_EXPIRED; exp == now + 1 verifies")
    func expired() throws {
        let token = Fixture.app.sign(Fixture.claims)
        #expect(Fixture.rejection(token, now: 3_700) == .expired(expiresAt: 3_700, now: 3_700))
        #expect(Fixture.rejection(token, now: 9_000) == .expired(expiresAt: 3_700, now: 9_000))
        #expect(Fixture.rejection(token, now: 9_000)?.stageError == StageError(code: .tokenExpired, category: .join, isFatal: true))
        #expect(Fixture.rejection(token, now: 9_000)?.reason == "token expired at 3700 s, now is 9000 s")
        #expect(throws: Never.self) { try Fixture.verify(token, now: 3_699).get() }
    }

    @Test("TOK-1: unknown key, revoked key, forged signature, bad signature size are TOKEN_NOT_ALLOWED")
    func notAllowed() {
        let stranger = TokenSigningKey(keyId: "stranger", origin: .keyPair, seed: 2024)
        let forger = TokenSigningKey(keyId: "app-key-1", origin: .keyPair, seed: 7)
        var revoked = Fixture.ring
        revoked.revoke(keyId: "app-key-1")
        let valid = Fixture.app.sign(Fixture.claims)
        let parts = Fixture.segments(valid)
        let cases: [(String, TokenKeyRing, String)] = [
            (stranger.sign(Fixture.claims), Fixture.ring, #"key "stranger" is unknown"#),
            (valid, revoked, #"key "app-key-1" is revoked"#),
            (forger.sign(Fixture.claims), Fixture.ring, #"signature does not verify with key "app-key-1""#),
            (parts[0] + "." + parts[1] + "." + parts[2].dropLast(4), Fixture.ring, "signature is 93 bytes, ES384 needs 96"),
            (parts[0] + "." + parts[1] + "." + String(repeating: "A", count: 128), Fixture.ring, "signature does not verify"),
        ]
        for (token, ring, fragment) in cases {
            let rejection = Fixture.rejection(token, ring: ring)
            #expect(rejection?.stageError == StageError(code: .tokenNotAllowed, category: .join, isFatal: true), "\(fragment)")
            #expect(rejection?.reason.contains(fragment) == true, "\(String(describing: rejection)) lacks \(fragment)")
        }
        #expect(revoked.revokedKeyIds == ["app-key-1"] && revoked.keys.map(\.keyId) == ["service-key"])
        revoked.register(Fixture.app.verifyingKey)
        #expect(revoked == Fixture.ring, "registering again lifts the revocation")
    }

    @Test("TOK-1: a token for another topic or resource is TOKEN_NOT_ALLOWED")
    func wrongStage() {
        let token = Fixture.app.sign(Fixture.claims)
        let wrongTopic = Fixture.verify(token, topic: "stage-B2")
        let wrongResource = Fixture.verify(token, resource: "arn:aws:ivs:us-west-2:123456789012:stage/B2")
        #expect(wrongTopic == .failure(.notAllowed(#"token topic "stage-A1" is not stage "stage-B2""#)))
        #expect(wrongResource == .failure(.notAllowed(
            #"token resource "arn:aws:ivs:us-west-2:123456789012:stage/A1" is not "arn:aws:ivs:us-west-2:123456789012:stage/B2""#
        )))
    }

    @Test("checks run in order: structure, header, key, signature, claims, expiry, stage")
    func checkOrder() {
        let forger = TokenSigningKey(keyId: "app-key-1", origin: .keyPair, seed: 7)
        let expiredElsewhere = Fixture.app.sign(Fixture.claims { $0.topic = "other"; $0.expiresAtSeconds = 10 })
        #expect(Fixture.rejection(expiredElsewhere)?.code == .tokenExpired)
        #expect(Fixture.rejection(forger.sign(Fixture.claims { $0.expiresAtSeconds = 10 }))?.code == .tokenNotAllowed)
        #expect(Fixture.rejection(forger.sign(Fixture.claims { $0.participantId = "bad id" }))?.code == .tokenNotAllowed)
        #expect(Fixture.rejection(Fixture.app.sign(Fixture.claims { $0.participantId = "bad id"; $0.expiresAtSeconds = 10 }))?.code
            == .tokenMalformed)
        let unknownAlg = Fixture.signed(header: #"{"alg":"none","kid":"nobody"}"#, payload: Fixture.payloadText)
        #expect(Fixture.rejection(unknownAlg)?.code == .tokenMalformed)
    }

    /// How often each mutation kind (see `mutant`) appears in every 50 mutants. An ECDSA check
    /// costs ~1 ms in a debug build, so the kinds that always reach the signature check (5, 7, 8,
    /// 9, and most of 1 and 2) get about a quarter of the slots; the rest stop at cheap checks.
    static let mutationSchedule: [Int] = {
        let slots = [0: 12, 1: 5, 2: 5, 3: 6, 4: 6, 5: 1, 6: 7, 7: 2, 8: 1, 9: 1]
        let schedule = slots.keys.sorted().flatMap { kind in Array(repeating: kind, count: slots[kind] ?? 0) }
        return (0..<schedule.count).map { schedule[($0 * 7) % schedule.count] }  // interleave the kinds
    }()

    @Test(
        "property: 10,000 random, mutated, spliced, truncated and re-encoded tokens never verify (fixed seeds)",
        arguments: 0..<4
    )
    func noMutantVerifies(chunk: Int) {
        var random = SplitMix64(seed: 0x70C0_FFEE_5EED &+ UInt64(chunk))
        let claimSets = [
            Fixture.claims,
            Fixture.claims { $0.participantId = "bob"; $0.attributes = [:] },
            Fixture.claims { $0.userId = "svc"; $0.capabilities = Capabilities() },
            Fixture.claims { $0.expiresAtSeconds = 99_999; $0.attributes = ["k": "v"] },
        ]
        let bases = zip(claimSets, [Fixture.app, Fixture.app, Fixture.service, Fixture.service]).map { claims, key in
            MutantBase(token: key.sign(claims), claims: claims, key: key)
        }
        for base in bases { #expect(throws: Never.self) { try Fixture.verify(base.token).get() } }
        let validTokens = Set(bases.map(\.token))
        var counts = (malformed: 0, expired: 0, notAllowed: 0)
        for index in 0..<2_500 {
            let kind = Self.mutationSchedule[index % Self.mutationSchedule.count]
            var token: String
            repeat { token = mutant(kind: kind, of: random.element(bases), bases: bases, random: &random) }
                while validTokens.contains(token)
            _ = TokenCodec.decodeUnverified(token)
            switch Fixture.verify(token) {
            case .success: Issue.record("mutant #\(index) (kind \(kind)) verified: \(token)")
            case .failure(.malformed): counts.malformed += 1
            case .failure(.expired): counts.expired += 1
            case .failure(.notAllowed): counts.notAllowed += 1
            }
        }
        // Both the early checks and the signature check must have been exercised many times.
        #expect(counts.malformed > 800, "\(counts)")
        #expect(counts.notAllowed > 600, "\(counts)")
        #expect(counts.malformed + counts.expired + counts.notAllowed == 2_500)
    }
}

/// A valid token the property test mutates, with the claims and key that made it.
private struct MutantBase {
    var token: String
    var claims: TokenClaims
    var key: TokenSigningKey
    var parts: [String]
    var characters: [Character]

    init(token: String, claims: TokenClaims, key: TokenSigningKey) {
        self.token = token
        self.claims = claims
        self.key = key
        parts = Fixture.segments(token)
        characters = Array(token)
    }
}

/// One mutant of `base`; `kind` (0...9) picks the mutation.
private func mutant(kind: Int, of base: MutantBase, bases: [MutantBase], random: inout SplitMix64) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    let pool = alphabet + Array(".....=+/ é\u{0}")
    var characters = base.characters
    let parts = base.parts
    switch kind {
    case 0:  // fully random text, mostly from the token alphabet
        return String((0..<random.below(200)).map { _ in random.element(random.below(4) == 0 ? pool : alphabet + ["."]) })
    case 1:  // one character replaced
        let position = random.below(characters.count)
        let original = characters[position]
        repeat { characters[position] = random.element(alphabet + ["."]) } while characters[position] == original
        return String(characters)
    case 2:  // one character inserted
        characters.insert(random.element(pool), at: random.below(characters.count + 1))
        return String(characters)
    case 3:  // one character deleted
        characters.remove(at: random.below(characters.count))
        return String(characters)
    case 4:  // segments reordered
        let order = random.element([[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
        return order.map { parts[$0] }.joined(separator: ".")
    case 5:  // segments spliced from different tokens
        let donors = (0..<3).map { _ in random.element(bases).parts }
        return (0..<3).map { donors[$0][$0] }.joined(separator: ".")
    case 6:  // truncated
        return String(characters.prefix(random.below(characters.count)))
    case 7:  // payload re-encoded with changed claims, old signature
        var claims = base.claims
        switch random.below(8) {
        case 0: claims.expiresAtSeconds &+= 1 + random.next() % 1_000_000
        case 1: claims.issuedAtSeconds &+= 1
        case 2: claims.topic += "x"
        case 3: claims.participantId = "mallory"
        case 4: claims.attributes = Attributes(claims.attributes.pairs.map { ($0.key, $0.value) } + [("role", "admin")])
        case 5: claims.capabilities.canPublish.toggle()
        case 6: claims.userId += "!"
        default: claims.whipURL = "https://evil.example"
        }
        return parts[0] + "." + Base64URL.encode(TokenCodec.payloadJSON(claims)) + "." + parts[2]
    case 8:  // the same claims as different but equivalent JSON bytes, old signature
        let json = String(decoding: TokenCodec.payloadJSON(base.claims), as: UTF8.self)
        let variants = [" " + json, json + "\n", json.replacingOccurrences("\":", "\" :"), json.replacingOccurrences("/", #"\/"#)]
        return parts[0] + "." + Fixture.b64(random.element(variants)) + "." + parts[2]
    default:  // the other registered key's header over the same payload and signature
        let otherKey = base.key.keyId == Fixture.app.keyId ? Fixture.service : Fixture.app
        return Base64URL.encode(TokenCodec.headerJSON(keyId: otherKey.keyId)) + "." + parts[1] + "." + parts[2]
    }
}
