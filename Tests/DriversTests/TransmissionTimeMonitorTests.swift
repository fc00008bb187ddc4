import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// TransmissionTimeMonitor (NET-2): no frame is due before its link's bandwidth could have
/// sent it, behind the frames sent before it, plus the link's latency. The bundled narrow-link
/// scenario passes; the same run with the size counted in bytes (a mutant) is reported.
@Suite("TransmissionTimeMonitor (NET-2)")
struct TransmissionTimeMonitorTests {
    static let narrowLink = "net-2-duplication-reordering-bandwidth"

    @Test("the bundled narrow, duplicating, reordering link passes")
    func narrowLinkPasses() throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(Self.narrowLink).yaml")
        #expect(scenario.makeWorld(seed: scenario.seed).network.links.allSatisfy { $0.signalingBitsPerSecond == 64_000 })
        let run = monitoredRun(of: scenario, with: TransmissionTimeMonitor())
        #expect(run.violations.isEmpty, "\(run.violations.map(\.description))")
    }

    @Test("a frame due before its bits could cross the link is reported, naming its size and rate",
          .enabled(if: Mutants.areAvailable, "mutants exist in debug builds only"))
    func bytesForBitsIsReported() throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(Self.narrowLink).yaml")
        let run = Mutants.withMutant(.signalingBandwidthInBytes) { monitoredRun(of: scenario, with: TransmissionTimeMonitor()) }
        let first = try #require(run.violations.first)
        #expect(first.invariant == "frames-take-their-transmission-time")
        #expect(first.message.contains("at 64000 bit/s"))
    }
}
