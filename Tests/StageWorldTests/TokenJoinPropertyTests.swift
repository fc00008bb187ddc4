import Simulation
import StageCore
import Testing
@testable import StageWorld

/// TOK-1 at the stage service: whatever token string a client presents, only the genuine
/// one is admitted. (The codec-level property over 10,000 strings is in StageCoreTests; this
/// one drives the service's join path.)
@Suite("Stage service admits no mutated token (TOK-1)")
struct TokenJoinPropertyTests {
    private static let genuine = signedToken("alice")

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ")

    private static func below(_ count: Int, _ random: inout SplitMix64) -> Int { Int(random.upTo(UInt64(count - 1))) }

    private static func character(_ random: inout SplitMix64) -> Character { alphabet[below(alphabet.count, &random)] }

    /// One character replaced, inserted or deleted, segments swapped, or a random string.
    private static func mutant(_ random: inout SplitMix64) -> String {
        var characters = Array(genuine)
        let position = below(characters.count, &random)
        switch random.upTo(5) {
        case 0:
            var replacement = character(&random)
            while replacement == characters[position] { replacement = character(&random) }
            characters[position] = replacement
        case 1: characters.insert(character(&random), at: position)
        case 2: characters.remove(at: position)
        case 3: return genuine.split(separator: ".").reversed().joined(separator: ".")
        default: return String((0..<random.upTo(200)).map { _ in character(&random) })
        }
        return String(characters)
    }

    @Test("2,000 mutated tokens are refused at join and nobody is admitted; the genuine one is")
    func nothingJoins() {
        var random = SplitMix64.stream(seed: 2026, name: "token-join-property")
        var server = StageServer(config: WorldConfig(stageId: "stage-1", clients: []))
        for attempt in 0..<2_000 {
            let token = Self.mutant(&random)
            guard token != Self.genuine else { continue }
            let reply = server.handle(.join(token: token), from: attempt, epoch: 1, now: .seconds(1))
            let refused = reply.outgoing.allSatisfy { if case .joinRejected = $0.message { true } else { false } }
            #expect(refused && reply.outgoing.count == 1, "admitted or answered oddly: \(token)")
        }
        #expect(server.participants.isEmpty)
        let reply = server.handle(.join(token: Self.genuine), from: 0, epoch: 1, now: .seconds(1))
        #expect(reply.events == [.admitted(StageKeys.claims(participantId: "alice", stageId: "stage-1").participantInfo(isLocal: false))])
    }
}
