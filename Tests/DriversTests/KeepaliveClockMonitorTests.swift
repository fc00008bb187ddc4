import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// KeepaliveClockMonitor (SIG-6, SUB-4): the service pings each connection every ping interval
/// from its registration, sets each pong deadline one timeout after its ping, and ends an
/// interrupted publisher's grace one grace period after the interruption. Bundled keepalive
/// runs pass; a service pinging every two intervals (a mutant) is reported.
@Suite("KeepaliveClockMonitor (SIG-6)")
struct KeepaliveClockMonitorTests {
    @Test("bundled keepalive runs pass, silences and partitions included", arguments: [
        "sig-6-keepalive-silence-reconnects", "net-3-partition-reconnect", "net-2-one-way-partition", "net-3-outage-gives-up",
        "sub-4-publisher-side-reconnect", "sig-6-no-zombie-connection-while-kept",
    ])
    func bundledRunsPass(_ name: String) throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(name).yaml")
        #expect(scenario.makeWorld(seed: scenario.seed).config.keepalive.isEnabled)
        let run = monitoredRun(of: scenario, with: KeepaliveClockMonitor())
        #expect(run.violations.isEmpty, "\(run.violations.map(\.description))")
    }

    @Test("a service pinging every two intervals is reported", .enabled(if: Mutants.areAvailable, "mutants exist in debug builds only"))
    func slowPingsAreReported() throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/sig-6-keepalive-silence-reconnects.yaml")
        let run = Mutants.withMutant(.slowKeepalivePings) { monitoredRun(of: scenario, with: KeepaliveClockMonitor()) }
        #expect(run.violations.first?.message.contains("not \(scenario.makeWorld(seed: scenario.seed).config.keepalive.pingInterval) later") == true, "\(run.violations.map(\.description))")
    }

    @Test("a ping follows the one before by one interval, or by several when the pings between were all due by now")
    func pingSpacing() {
        let second = UInt64(1_000_000_000)
        #expect(KeepaliveClockMonitor.followsInStep(.seconds(12), previous: .seconds(10), interval: 2 * second, now: .seconds(10)))
        #expect(KeepaliveClockMonitor.followsInStep(.seconds(14), previous: .seconds(10), interval: 2 * second, now: .seconds(12)))
        #expect(!KeepaliveClockMonitor.followsInStep(.seconds(14), previous: .seconds(10), interval: 2 * second, now: .seconds(11)), "the ping at 12 s had not fired by 11 s")
        #expect(!KeepaliveClockMonitor.followsInStep(.seconds(13), previous: .seconds(10), interval: 2 * second, now: .seconds(20)))
        #expect(!KeepaliveClockMonitor.followsInStep(.seconds(12), previous: .seconds(10), interval: 0, now: .seconds(20)))
    }
}
