import Foundation
import Signaling
import Testing
@testable import Scenario

/// YAML alias bombs (issue 13, point 3): alias expansion is limited in count and in size, and
/// the alias that goes over is reported where it stands.
@Suite("YAML aliases: limits on expansion")
struct YAMLAliasTests {
    private func error(_ text: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(text, path: "bomb.yaml")
            return nil
        } catch {
            return error as? ScenarioError
        }
    }

    /// "Billion laughs": nine anchors, each a list of nine aliases of the one before.
    private var billionLaughs: String {
        var lines = ["name: bomb", "participants:", "  - name: alice", "    signalingMetadata:"]
        lines.append("      a: &a [" + Array(repeating: "\"lol\"", count: 9).joined(separator: ", ") + "]")
        for (previous, level) in zip("abcdefgh", "bcdefghi") {
            lines.append("      \(level): &\(level) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("a nine-level billion laughs is refused at once, at the alias that goes over the expansion count")
    func billionLaughsIsRefused() {
        let found = error(billionLaughs)
        #expect(found.map { [$0.line, $0.column] } == [9, 14], "the first *d, in e's list")
        #expect(found?.message.contains("more than \(YAMLAliasLimits.maximumExpansions) alias expansions") == true)
        #expect(found?.message.contains("alias *d") == true)
    }

    @Test("few aliases of a large anchored value go over the expanded size, reported at the alias that does")
    func expandedSizeIsLimited() {
        let items = Array(repeating: "x", count: 2_000).joined(separator: ", ")
        let uses = Array(repeating: "      - *big", count: 60).joined(separator: "\n")
        let text = "name: big\nparticipants:\n  - name: alice\n    notifyMetadata:\n      - &big [\(items)]\n\(uses)\n"
        let found = error(text)
        let crossing = YAMLAliasLimits.maximumExpandedNodes / 2_001 + 1
        #expect(found.map { [$0.line, $0.column] } == [5 + crossing, 9])
        #expect(found?.message.contains("more than \(YAMLAliasLimits.maximumExpandedNodes) values") == true)
    }

    @Test("when an earlier anchor of the same name hides the alias from the locator, the error is at the anchor")
    func shadowedAnchor() {
        let text = billionLaughs.replacingOccurrences(of: "    signalingMetadata:\n", with: "    signalingMetadata:\n      z: &d hidden\n")
        let found = error(text)
        #expect(found.map { [$0.line, $0.column] } == [9, 10], "&d in d's own line")
        #expect(found?.message.hasPrefix("an alias of &d (defined here) makes more than") == true)
    }

    @Test("ordinary aliases still work, and expand to the anchored value")
    func ordinaryAliases() throws {
        let text = """
        name: reuse
        participants:
          - name: alice
            strategy: &quiet {publish: false, subscribe: audioOnly}
            signalingMetadata: &meta {room: [1, 2], "on": true}
          - name: bob
            strategy: *quiet
            notifyMetadata: [*meta, *meta]

        """
        let scenario = try ScenarioLoader.parse(text, path: "reuse.yaml")
        #expect(scenario.participants[0].config.strategy == scenario.participants[1].config.strategy)
        let meta = try #require(scenario.participants[0].config.connectMetadata.metadata)
        #expect(scenario.participants[1].config.connectMetadata.notifyMetadata == .array([meta, meta]))
    }
}
