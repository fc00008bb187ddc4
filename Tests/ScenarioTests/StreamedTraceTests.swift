import Drivers
import Scenario
import Simulation
import StageWorld
import Testing

/// A trace streamed to a sink (what `stagesim run --trace` does) renders the same lines and
/// hash as a kept one, keeps neither events nor actions, and still counts its events.
@Suite("Streamed traces")
struct StreamedTraceTests {
    final class LineCollector: TraceSink, @unchecked Sendable {
        var text = ""
        func write(_ line: String) { text += line }
    }

    @Test("streamed and kept traces agree on bytes, hash and count; the streamed one keeps nothing")
    func streamedMatchesKept() throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/net-lossy-join-publish-subscribe.yaml")
        var unexpected = scenario
        unexpected.expectations = []
        let kept = ScenarioRunner.run(unexpected)
        let collector = LineCollector()
        let streamed = ScenarioRunner.run(unexpected, trace: Trace(keepsEvents: false, sink: collector))
        #expect(collector.text == kept.trace.jsonLines)
        #expect(streamed.traceHash == kept.traceHash)
        #expect(kept.traceHash == XXH3.hash64(Array(kept.trace.jsonLines.utf8)))
        #expect(streamed.trace.count == kept.trace.events.count && streamed.trace.count > 0)
        #expect(streamed.trace.events.isEmpty && streamed.actions.isEmpty)
        #expect(streamed.violations == kept.violations)
    }

    @Test("a scenario with expectations keeps its events even when asked to stream")
    func expectationsKeepEvents() throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/net-lossy-join-publish-subscribe.yaml")
        #expect(!scenario.expectations.isEmpty)
        let run = ScenarioRunner.run(scenario, trace: Trace(keepsEvents: false))
        #expect(run.passed)
        #expect(run.trace.events.count == run.trace.count)
        #expect(run.traceHash == ScenarioRunner.run(scenario).traceHash)
    }
}
