@testable import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import Testing
@testable import StageWorld

/// PublisherCapacityMonitor (STG-4): the service admits a new publisher while fewer than 12
/// publish and refuses it once 12 do. The bundled capacity scenarios must pass; the violating
/// decisions are made by hand on the world `stg-4-capacity.yaml` leaves (p01..p12 publishing,
/// p13 refused), as a service with the capacity check off by one would hold it.
@Suite("PublisherCapacityMonitor (STG-4)")
struct PublisherCapacityMonitorTests {
    /// The run of a bundled scenario: its violations, its final world, and how many publishes
    /// the service refused.
    static func run(_ name: String) throws -> (violations: [Violation], world: World, refusals: Int) {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(name).yaml")
        var refusals = 0
        let run = monitoredRun(of: scenario, with: PublisherCapacityMonitor()) { events in
            refusals += events.filter { if case .delivered(.publishRejected, _) = $0.kind { true } else { false } }.count
        }
        return (run.violations, run.world, refusals)
    }

    /// The monitor's verdicts on p13's publish reaching the service of `world`.
    static func verdicts(_ world: World) -> [String] {
        let streams = [StageStream(participantId: "p13", kind: .audio), StageStream(participantId: "p13", kind: .video)]
        let publish = TraceEvent(time: .seconds(1), observer: "server", kind: .delivered(.publish(streams, PublisherProperties()), frame: ""), peer: "p13")
        var monitors = MonitorSet([PublisherCapacityMonitor()])
        monitors.observe([publish], world: world)
        return monitors.violations.map(\.message)
    }

    static func participant(_ id: String, in world: World) throws -> Int {
        try #require(world.server.participants.firstIndex { $0.info.participantId == id })
    }

    @Test("the bundled capacity scenarios pass, with publishes refused at the boundary", arguments: [
        "stg-4-capacity", "stg-4-str-5-capacity-retry-on-refresh", "stg-4-stale-publish-answer",
    ])
    func realRuns(_ name: String) throws {
        let run = try Self.run(name)
        #expect(run.violations.isEmpty, "\(run.violations.map(\.description))")
        #expect(run.refusals > 0)
    }

    @Test("a thirteenth publisher admitted is reported")
    func admittedPastCapacity() throws {
        var world = try Self.run("stg-4-capacity").world
        #expect(Self.verdicts(world).isEmpty, "p13 refused with 12 publishing")
        let p13 = try Self.participant("p13", in: world)
        world.server.participants[p13].publishedStreams = [StageStream(participantId: "p13", kind: .audio)]
        #expect(Self.verdicts(world) == ["the service admitted p13's publish, making 13 publishers on a stage of capacity 12"])
    }

    @Test("a publish refused below capacity is reported")
    func refusedBelowCapacity() throws {
        var world = try Self.run("stg-4-capacity").world
        world.server.participants[try Self.participant("p01", in: world)].publishedStreams = []
        #expect(Self.verdicts(world) == ["the service refused p13's publish while only 11 of 12 publish"])
    }

    @Test("a publish refused because the token forbids publishing is not a capacity decision")
    func capabilityRefusal() throws {
        var world = try Self.run("stg-4-capacity").world
        world.server.participants[try Self.participant("p01", in: world)].publishedStreams = []
        world.server.participants[try Self.participant("p13", in: world)].info.capabilities.canPublish = false
        #expect(Self.verdicts(world).isEmpty)
    }
}
