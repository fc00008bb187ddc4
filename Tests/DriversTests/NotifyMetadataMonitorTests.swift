import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// NotifyMetadataMonitor (SIG-2, SIG-5): every connection.created a client receives carries the
/// notify metadata the announced participant's app sent. The bundled metadata scenario must
/// pass; an announcement that lost the metadata on the way is made by hand.
@Suite("NotifyMetadataMonitor (SIG-2, SIG-5)")
struct NotifyMetadataMonitorTests {
    static func load() throws -> Scenario {
        try ScenarioLoader.load(path: packageRoot + "/Scenarios/sig-2-arbitrary-json-metadata.yaml")
    }

    @Test("the bundled metadata scenario passes, with rich's notify metadata announced")
    func realRun() throws {
        let scenario = try Self.load()
        var announcedWithMetadata = 0
        let violations = monitoredRun(of: scenario, with: NotifyMetadataMonitor()) { events in
            announcedWithMetadata += events.filter { if case .delivered(.participantJoined(_, .some), _) = $0.kind { true } else { false } }.count
        }.violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        #expect(announcedWithMetadata > 0)
    }

    /// The monitor's messages for `watcher` receiving rich's connection.created with `metadata`
    /// taken from `sender`'s configuration.
    static func verdicts(announcing sender: String, from peer: String = "server", lose: Bool) throws -> [String] {
        let world = try Self.load().makeWorld(seed: 93)
        let client = try #require(world.clientIndex(named: sender))
        let info = try #require(world.clients[client].claims).participantInfo(isLocal: false)
        let sent = lose ? nil : world.clients[client].config.connectMetadata.notifyMetadata
        var monitors = MonitorSet([NotifyMetadataMonitor()])
        let event = TraceEvent(time: .seconds(2), observer: "watcher", kind: .delivered(.participantJoined(info, notifyMetadata: sent), frame: ""), peer: peer)
        monitors.observe([event], world: world)
        return monitors.violations.map(\.message)
    }

    @Test("an announcement that lost the sender's notify metadata is reported")
    func lostMetadataIsReported() throws {
        #expect(try Self.verdicts(announcing: "rich", lose: false).isEmpty)
        let found = try Self.verdicts(announcing: "rich", lose: true)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("connection.created announced rich with notify metadata none, but its app sent") == true, "\(found)")
        #expect(try Self.verdicts(announcing: "plain", lose: true).isEmpty, "plain sent no notify metadata")
        #expect(try Self.verdicts(announcing: "rich", from: TraceEvent.injectedSender, lose: true).isEmpty, "an injected frame is not the service's")
    }
}
