import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// CutLinkMonitor (NET-2): nothing arrives over a link direction a partition or outage cuts.
/// The bundled partition and outage scenarios must pass; arrivals inside a cut are made by hand
/// on the world of the one-way partition scenario (`mute`'s uplink cut from 5 s to 20 s).
@Suite("CutLinkMonitor (NET-2)")
struct CutLinkMonitorTests {
    @Test("the bundled partition and outage scenarios pass", arguments: [
        "net-2-one-way-partition", "net-3-outage-gives-up", "net-3-partition-reconnect", "net-2-short-partition-is-delay",
    ])
    func realRuns(_ name: String) throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(name).yaml")
        let run = monitoredRun(of: scenario, with: CutLinkMonitor())
        #expect(!run.world.config.faults.partitions.isEmpty)
        #expect(run.violations.isEmpty, "\(run.violations.map(\.description))")
    }

    /// The monitor's messages for one arrival at `seconds` in the one-way partition scenario.
    static func verdicts(_ arrival: TraceEvent) throws -> [String] {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/net-2-one-way-partition.yaml")
        var monitors = MonitorSet([CutLinkMonitor()])
        monitors.observe([arrival], world: scenario.makeWorld(seed: scenario.seed))
        return monitors.violations.map(\.message)
    }

    static func pong(at seconds: UInt64) -> TraceEvent {
        TraceEvent(time: .seconds(seconds), observer: "server", kind: .delivered(.pong, frame: ""), peer: "mute")
    }

    static func ping(at seconds: UInt64) -> TraceEvent {
        TraceEvent(time: .seconds(seconds), observer: "mute", kind: .delivered(.ping, frame: ""), peer: "server")
    }

    @Test("a frame arriving over the cut uplink is reported, from the cut's start to just before its end")
    func uplinkArrivalIsReported() throws {
        #expect(try Self.verdicts(Self.pong(at: 5)).count == 1)
        #expect(try Self.verdicts(Self.pong(at: 12)).first?.contains("on the uplink of mute") == true)
        #expect(try Self.verdicts(Self.pong(at: 4)).isEmpty)
        #expect(try Self.verdicts(Self.pong(at: 20)).isEmpty, "the cut ends at its end")
    }

    @Test("the downlink an uplink cut leaves open may carry frames; a duplicate held on it too")
    func openDirectionCarries() throws {
        #expect(try Self.verdicts(Self.ping(at: 12)).isEmpty)
        #expect(try Self.verdicts(TraceEvent(time: .seconds(12), observer: "mute", kind: .duplicate(frame: ""))).isEmpty)
    }

    @Test("under an outage every link is cut both ways")
    func outageCutsEveryLink() throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/net-3-outage-gives-up.yaml")
        let world = scenario.makeWorld(seed: scenario.seed)
        let client = try #require(world.clients.first?.name)
        var monitors = MonitorSet([CutLinkMonitor()])
        monitors.observe([TraceEvent(time: .seconds(30), observer: client, kind: .heldForOrder(frame: ""))], world: world)
        monitors.observe([TraceEvent(time: .seconds(30), observer: "server", kind: .delivered(.pong, frame: ""), peer: client)], world: world)
        #expect(monitors.violations.count == 2, "\(monitors.violations.map(\.description))")
    }
}
