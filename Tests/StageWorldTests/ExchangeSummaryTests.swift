import StageCore
import Testing
@testable import StageWorld

/// An `exchangeToken` trace line names each claim it changes and the key that signed it.
@Suite("exchangeToken trace summary")
struct ExchangeSummaryTests {
    let current = StageKeys.claims(participantId: "alice", stageId: "stage-1", userId: "a1")

    func signed(_ claims: TokenClaims, by signer: TokenSigner = .app) -> String {
        StageKeys.standard.token(.signed(claims, by: signer))
    }

    @Test("changed claims, old and new, and the signer")
    func changes() {
        var new = current
        new.capabilities = Capabilities(canPublish: false, canSubscribe: true)
        new.attributes = ["role": "guest"]
        #expect(TraceText.exchange(signed(new, by: .revoked), replacing: signed(current))
            == #"exchangeToken(attributes: {} -> {role=guest}, capabilities: publish+subscribe -> subscribe; signed by revoked (app-key-0))"#)
    }

    @Test("no change, and a token that cannot be read")
    func edges() {
        #expect(TraceText.exchange(signed(current), replacing: signed(current)) == "exchangeToken(no claim changes; signed by app (app-key-1))")
        #expect(TraceText.exchange("not-a-token", replacing: signed(current)) == #"exchangeToken(unreadable token "not-a-token")"#)
    }
}
