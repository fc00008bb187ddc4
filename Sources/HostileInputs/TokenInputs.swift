import Signaling
import Simulation
import StageCore
import StageWorld

/// Hostile participant tokens (TOK-1): genuine tokens damaged as text, re-encoded with a
/// mutated header or claims (keeping the genuine signature), or built from random segments.
/// A token that verifies must be one of the genuine ones; every other must be refused with a
/// reason, and reading its claims unverified must not trap.
struct TokenInputs: HostileInputTarget {
    let kind = HostileInputKind.token
    private static let stageId = "stage-1"
    private let genuine: [String]
    private let keyRing = StageKeys.standard.keyRing

    init() {
        let keys = StageKeys.standard
        let claims = [
            StageKeys.claims(participantId: "alice", stageId: Self.stageId),
            StageKeys.claims(participantId: "bob", stageId: Self.stageId, userId: "bob@example", attributes: ["role": "host", "seat": "1"]),
            StageKeys.claims(participantId: "carol", stageId: Self.stageId, capabilities: Capabilities(canPublish: false, canSubscribe: true)),
        ]
        genuine = claims.map { keys.token(.signed($0, by: .app)) } + claims.prefix(1).map { keys.token(.signed($0, by: .service)) }
    }

    func input(_ random: inout SplitMix64) -> String {
        let token = random.pick(genuine) ?? ""
        switch random.below(10) {
        case 0...3: return TextMutator.mutate(token, splices: [".", "..", "=", "+", "/", "eyJ", "e30", "AAAA", " "], random: &random)
        case 4...8: return resegmented(token, random: &random)
        default: return (0...random.below(4)).map { _ in Base64URL.encode(Array((0..<random.below(64)).map { _ in UInt8(truncatingIfNeeded: random.next()) })) }.joined(separator: ".")
        }
    }

    /// The token with its header or claims decoded, mutated as JSON and encoded again.
    private func resegmented(_ token: String, random: inout SplitMix64) -> String {
        var segments = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == 3 else { return token }
        let index = random.chance(0.25) ? 0 : 1
        guard let bytes = Base64URL.decode(Array(segments[index].utf8)), let json = try? JSONValue.parse(utf8: bytes) else { return token }
        segments[index] = Base64URL.encode(Array(JSONMutator.mutate(json, identifiers: ["alice", "bob", Self.stageId], random: &random).jsonText.utf8))
        return segments.joined(separator: ".")
    }

    func verdict(on input: String) -> InputVerdict {
        _ = TokenCodec.decodeUnverified(input)
        switch keyRing.verify(input, nowSeconds: 1, topic: Self.stageId, resource: StageKeys.resource(forStage: Self.stageId)) {
        case .success: return genuine.contains(input) ? .accepted : .finding("a token that is not one of the genuine ones verified")
        case .failure(let rejection): return rejection.reason.isEmpty ? .finding("a rejection without a reason: \(rejection.code.name)") : .rejected
        }
    }
}
