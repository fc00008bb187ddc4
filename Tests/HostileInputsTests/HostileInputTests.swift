import HostileInputs
import Testing

/// The seeded input harness (issue 13): 10,000 hostile inputs per parser per run, none of
/// which may crash it, get an unclear error, change a client by a refused frame, break an
/// invariant, or pass as a genuine token. `stagesim selftest --inputs N` runs more.
@Suite("Hostile inputs: 10,000 per parser")
struct HostileInputTests {
    @Test("every input is accepted or refused clearly; both happen", arguments: HostileInputKind.allCases)
    func tenThousand(kind: HostileInputKind) throws {
        let tally = try InputCampaign(kind: kind, seed: 2026).run(count: 10_000)
        #expect(tally.inputs == 10_000)
        #expect(tally.findings.isEmpty, "\(tally.findings.prefix(5).map(\.description).joined(separator: "\n"))")
        #expect(tally.accepted > 0 && tally.rejected > 1_000, "accepted \(tally.accepted), rejected \(tally.rejected)")
    }

    @Test("an input is a function of the seed and its number", arguments: HostileInputKind.allCases)
    func reproducible(kind: HostileInputKind) throws {
        let campaign = try InputCampaign(kind: kind, seed: 7)
        #expect(campaign.input(number: 41) == (try InputCampaign(kind: kind, seed: 7)).input(number: 41))
        #expect(campaign.input(number: 41) != campaign.input(number: 42))
    }
}
