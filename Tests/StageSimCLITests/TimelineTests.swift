import Testing

/// The default timeline (no `--verbose`) shows what expectations can check.
@Suite("stagesim run: the default timeline")
struct TimelineTests {
    @Test("errors, the service's refusals with reasons, and exchanges with their changes and signer")
    func exchangeRefusals() throws {
        let result = try stagesim(["run", "Scenarios/tok-4-immutable-fields-and-origin.yaml"])
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(result.status == 0)
        #expect(lines.contains("  1.500s   >  host      exchangeToken(user_id: \"host-v1\" -> \"host-v2\", iat: 0 -> 1; signed by unknown (app-key-rogue))"))
        #expect(lines.contains("  1.520s      server    refused exchangeToken: TOKEN_NOT_ALLOWED(8, exchangeToken): key \"app-key-rogue\" is unknown"))
        #expect(lines.contains("  1.540s      host      exchangeToken failed: TOKEN_NOT_ALLOWED(8, exchangeToken): key \"app-key-rogue\" is unknown"))
        #expect(!lines.contains { $0.contains("<- {") }, "network deliveries are --verbose only")
    }

    @Test("an ejection is reported as a connection error")
    func ejection() throws {
        let result = try stagesim(["run", "Scenarios/tok-10-token-reuse.yaml"])
        #expect(result.output.contains("connection failed: PARTICIPANT_DISCONNECTED(10, connection, fatal): token-reused"))
    }

    @Test("protocol errors are shown")
    func protocolErrors() throws {
        let result = try stagesim(["run", "Scenarios/sig-8-bad-frames-keep-state.yaml"])
        #expect(result.output.contains("protocol error: "))
    }
}
