@testable import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// TokenRefusalCodeMonitor (TOK-1): a refused join or exchange carries the code of its token's
/// defect. The monitor's own classification is checked defect by defect; the bundled token
/// scenarios must pass; a refusal with the wrong code (an expired token refused as
/// TOKEN_NOT_ALLOWED, the planted bug) is made by hand.
@Suite("TokenRefusalCodeMonitor (TOK-1)")
struct TokenRefusalCodeMonitorTests {
    static let keys = StageKeys.standard

    /// A token for `stage` from `by`, valid until `exp` (seconds), with `change` applied to its claims.
    static func token(stage: String = "stage-1", exp: UInt64 = 3600, by signer: TokenSigner = .app, _ change: (inout TokenClaims) -> Void = { _ in }) -> String {
        var claims = StageKeys.claims(participantId: "alice", stageId: stage, validForSeconds: exp)
        change(&claims)
        return keys.token(.signed(claims, by: signer))
    }

    static func code(_ token: String, now: UInt64 = 10) -> StageErrorCode? {
        TokenRefusalCodeMonitor.defect(of: token, keyRing: keys.keyRing, nowSeconds: now, stage: "stage-1", resource: StageKeys.resource(forStage: "stage-1"))?.code
    }

    @Test("each defect gets its TOK-1 code, in the service's order")
    func classification() throws {
        let valid = Self.token()
        #expect(Self.code(valid) == nil)
        #expect(Self.code(Self.token(exp: 10)) == .tokenExpired, "exp == now is expired")
        #expect(Self.code(Self.token(exp: 11)) == nil)
        #expect(Self.code(Self.token(by: .unknown)) == .tokenNotAllowed)
        #expect(Self.code(Self.token(by: .revoked)) == .tokenNotAllowed)
        #expect(Self.code(Self.token(stage: "stage-2")) == .tokenNotAllowed)
        #expect(Self.code(Self.token { $0.resource = "arn:stagesim:stage/other" }) == .tokenNotAllowed)
        #expect(Self.code("not-a-token") == .tokenMalformed)
        #expect(Self.code(Self.token(by: .unknown) { $0.participantId = "not valid!" }) == .tokenNotAllowed, "an unverified payload is not read")
        #expect(Self.code(Self.token { $0.participantId = "not valid!" }) == .tokenMalformed)
        #expect(Self.code(Self.token(stage: "stage-2", exp: 5)) == .tokenExpired, "expired whichever stage it names")
        #expect(Self.code(Self.token(exp: 5, by: .unknown)) == .tokenNotAllowed)
        let segments = valid.split(separator: ".")
        let otherPayload = try #require(Self.token(exp: 7200).split(separator: ".").dropFirst().first)
        #expect(Self.code("\(segments[0]).\(otherPayload).\(segments[2])") == .tokenNotAllowed, "a signature over another payload")
    }

    @Test("the payload's TOK-2 shape is read by the monitor itself: attributes up to 1 KB, the jti alphabet, typed fields")
    func payloadShape() throws {
        let bio = { (count: Int) in Attributes([("bio", String(repeating: "x", count: count))]) }
        #expect(Self.code(Self.token { $0.attributes = bio(1_021) }) == nil, "1,024 bytes of attributes (keys and values) is within the limit")
        #expect(Self.code(Self.token { $0.attributes = bio(1_022) }) == .tokenMalformed, "1,025 bytes is over it")
        #expect(Self.code(Self.token { $0.attributes = Attributes([("é", String(repeating: "x", count: 1_023))]) }) == .tokenMalformed, "bytes of UTF-8, not characters: 1,024 characters, 1,025 bytes")
        #expect(Self.code(Self.token { $0.participantId = "a_B-9" }) == nil)
        #expect(Self.code(Self.token { $0.participantId = "" }) == .tokenMalformed)
        #expect(Self.code(Self.token { $0.participantId = "ä" }) == .tokenMalformed)
        guard case .success(let claims) = TokenRefusalCodeMonitor.payload(of: Self.token(exp: 4_321)) else {
            Issue.record("a valid payload was not read")
            return
        }
        #expect(claims.expiresAtSeconds == 4_321 && claims.topic == "stage-1")
    }

    @Test("the bundled token scenarios pass, with refusals", arguments: [
        "tok-1-bad-tokens-never-join", "stg-2-token-errors", "tok-1-expiry-second-boundary", "tok-4-immutable-fields-and-origin",
        "net-3-refused-reconnect-cleans-up",
    ])
    func realRuns(_ name: String) throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(name).yaml")
        var refusals = 0
        let violations = monitoredRun(of: scenario, with: TokenRefusalCodeMonitor()) { events in
            refusals += events.filter { if case .service(.refused) = $0.kind { true } else { false } }.count
        }.violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        #expect(refusals > 0)
    }

    /// The monitor's messages for one step at 10 s: `token` delivered to the service as
    /// `operation`, refused with `code`.
    static func refusal(_ operation: String, _ token: String, _ code: StageErrorCode) throws -> [String] {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/tok-1-bad-tokens-never-join.yaml")
        let world = scenario.makeWorld(seed: scenario.seed)
        let message: WireMessage = operation == "join" ? .join(token: token) : .exchangeToken(token)
        let category: StageErrorCategory = operation == "join" ? .join : .exchangeToken
        var monitors = MonitorSet([TokenRefusalCodeMonitor()])
        monitors.observe([
            TraceEvent(time: .seconds(10), observer: "server", kind: .delivered(message, frame: "")),
            TraceEvent(time: .seconds(10), observer: "server", kind: .service(.refused(operation: operation, error: StageError(code: code, category: category, isFatal: operation == "join"), reason: ""))),
        ], world: world)
        return monitors.violations.map(\.message)
    }

    @Test("an expired token refused as TOKEN_NOT_ALLOWED is reported; as TOKEN_EXPIRED it passes")
    func expiredAsNotAllowed() throws {
        let expired = Self.token(exp: 7)
        #expect(try Self.refusal("join", expired, .tokenNotAllowed) == ["the service refused the join with TOKEN_NOT_ALLOWED, but the token expired at 7 s and it is 10 s: TOKEN_EXPIRED"])
        #expect(try Self.refusal("join", expired, .tokenExpired).isEmpty)
        #expect(try Self.refusal("exchangeToken", expired, .tokenNotAllowed).count == 1)
    }

    @Test("a join refused with a sound token is reported; an exchange refused with one for TOK-3/TOK-4 passes only as TOKEN_NOT_ALLOWED")
    func soundTokens() throws {
        let valid = Self.token()
        #expect(try Self.refusal("join", valid, .tokenNotAllowed) == ["the service refused the join with TOKEN_NOT_ALLOWED, but the token has no TOK-1 defect"])
        #expect(try Self.refusal("exchangeToken", valid, .tokenNotAllowed).isEmpty)
        #expect(try Self.refusal("exchangeToken", valid, .tokenMalformed) == ["the service refused the exchangeToken with TOKEN_MALFORMED, but the token has no TOK-1 defect"])
    }

    @Test("a payload is called misread only when Foundation's reader reads a JSON object the stage's reader refuses for its grammar")
    func misreadPayload() {
        #expect(TokenRefusalCodeMonitor.misreadPayload(of: Self.token()) == nil, "the stage's reader reads every token the stage signs (\"iat\":0 among its numbers)")
        #expect(TokenRefusalCodeMonitor.misreadPayload(of: Self.token { $0.attributes = ["n": "0", "quote": "\"\\\u{1}"] }) == nil)
        func unsigned(_ payload: String) -> String { "e30." + Base64URL.encode(Array(payload.utf8)) + ".c2ln" }
        for payload in ["{\"a\":01}", "{\"a\":1} x", "not json", "{\"a\":1,}", "{\"a\":1,\"a\":2}"] {
            #expect(TokenRefusalCodeMonitor.misreadPayload(of: unsigned(payload)) == nil, "\(payload): both readers refuse it, or the stage's reader refuses it beyond the grammar or for a trailing comma")
        }
        #expect(TokenRefusalCodeMonitor.misreadPayload(of: unsigned("[1, 2]")) == nil, "a payload that is not an object is malformed to both")
    }
}
