import Drivers
import Foundation
import Scenario
import Simulation
import Testing

/// Pins every bundled scenario's trace: the XXH3-64 of its JSON-lines bytes (what `--trace`
/// writes) and the trace hash a run reports, both taken from the code before the simulator
/// speed work of issue 16. A change to either is a change to what a run observes.
@Suite("Trace hash pins")
struct TraceHashPinTests {
    @Test("every bundled scenario's trace bytes and hash are the pinned ones", arguments: scenarioFiles)
    func tracePinned(path: String) throws {
        let relativePath = String(path.dropFirst(packageRoot.count + 1))
        let pinned = try #require(TraceHashPins.fileHashes[relativePath], "no pin for \(relativePath)")
        let run = ScenarioRunner.run(try ScenarioLoader.load(path: path))
        #expect(XXH3.hex(XXH3.hash64(Array(run.trace.jsonLines.utf8))) == pinned, "trace bytes of \(relativePath)")
        #expect(XXH3.hex(run.traceHash) == pinned, "trace hash of \(relativePath)")
    }

    @Test("every pin names a bundled scenario")
    func noStalePins() {
        let relativePaths = Set(scenarioFiles.map { String($0.dropFirst(packageRoot.count + 1)) })
        #expect(Set(TraceHashPins.fileHashes.keys) == relativePaths)
    }
}
