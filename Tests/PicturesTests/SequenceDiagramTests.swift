import Testing
@testable import Pictures

@Suite("Sequence diagram of a run (issue 17)")
struct SequenceDiagramTests {
    private let diagram = SequenceDiagram(title: "small", trace: SmallRun.trace, config: SmallRun.config, violations: SmallRun.violations)
    private var page: String { DiagramPage.html(diagram) }

    @Test("a lifeline for the service and each client, an arrow per delivered frame, a broken arrow per loss")
    func model() {
        #expect(diagram.lifelines == ["server", SmallRun.hostile, "alice"])
        #expect(diagram.rows.filter { $0.family == .frame }.count == SmallRun.deliveredCount)
        #expect(diagram.rows.filter { $0.family == .lost }.count == SmallRun.lostCount)
        #expect(diagram.rows.first { $0.family == .frame }.map { ($0.sender, $0.lifeline, $0.label) } ?? ("", "", "") == ("alice", "server", "join"))
        #expect(diagram.bands.count == 1)
        #expect(diagram.rows.contains { $0.violated && $0.eventIndex == 6 })
        #expect(!diagram.rows.contains { $0.eventIndex == 8 }, "timers are left to the text trace")
    }

    @Test("the page counts as the model does: lifelines, delivered and lost arrows, one violation")
    func pageCounts() {
        #expect(count("<g class=\"lifeline ", in: page) == 3)
        #expect(count("<g class=\"arrow delivered ", in: page) == SmallRun.deliveredCount)
        #expect(count("<g class=\"arrow lost ", in: page) == SmallRun.lostCount)
        #expect(count("<g class=\"violation\"", in: page) == 1)
        #expect(count("<g class=\"band partition", in: page) == 1)
        #expect(page.contains("data-render-ms"))
    }

    @Test("no violation, no violation mark")
    func passingRun() {
        let clean = DiagramPage.html(SequenceDiagram(title: "ok", trace: SmallRun.trace, config: SmallRun.config, violations: []))
        #expect(count("class=\"violation\"", in: clean) == 0)
        #expect(clean.contains("invariants: all hold"))
    }

    @Test("names, frames and messages are escaped; JWT signatures elided; nothing fetched")
    func escaping() {
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("&lt;b&gt;ping&lt;/b&gt;"))
        #expect(page.contains("published &lt;before&gt; connected &amp; more"))
        #expect(page.contains(".&lt;signature&gt;") && !page.contains("c2lnbmF0dXJl"))
        #expect(count("<script>", in: page) == 1)
        #expect(!page.contains("http://") && !page.contains("https://"))
        #expect(HTMLText.escape(#"a<b>&"c'"#) == "a&lt;b&gt;&amp;&quot;c&#39;")
    }

    @Test("counterexample action numbers reach the rows and the violation")
    func actionNumbers() {
        let numbered = SequenceDiagram(title: "cx", trace: SmallRun.trace, config: SmallRun.config, violations: SmallRun.violations,
                                       actionNumbers: [1, 1, 2, 3, 4, 4, 5, 6, 7])
        #expect(numbered.violations.first?.actionNumber == 5)
        #expect(DiagramPage.html(numbered).contains("(action #5)"))
    }

    @Test("the same run gives the same bytes")
    func deterministic() {
        let again = DiagramPage.html(SequenceDiagram(title: "small", trace: SmallRun.trace, config: SmallRun.config, violations: SmallRun.violations))
        #expect(again == page)
    }

    private func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }
}
