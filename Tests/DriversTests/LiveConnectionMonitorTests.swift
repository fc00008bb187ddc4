import Checking
@testable import Drivers
import Simulation
import StageCore
import Testing
@testable import StageWorld

/// reconnect.yaml's roamer joins and the service drops it for an unanswered ping (SIG-6).
/// Timers fire in due order, so anchor's join timeout, due at 30 s, cannot move the clock past
/// roamer's watchdog while that is pending.
private struct DroppedRoamer {
    var world: World
    var monitors = MonitorSet([LiveConnectionMonitor()])

    init() throws {
        let scenario = try checkScenario("reconnect")
        world = scenario.makeWorld(seed: scenario.seed)
        for step in ["roamer: join()", "anchor: join()", "roamer -> server: join", "server -> roamer: joinAccepted",
                     "server: timer ping(client 1", "server: timer pongDeadline(client 1"] {
            try fire(step)
        }
    }

    /// Applies the enabled action described as `prefix…`, with the monitor watching.
    mutating func fire(_ prefix: String) throws {
        let action = try #require(world.enabledActions().first { world.describe($0).hasPrefix(prefix) }, "no action \(prefix) in \(world.enabledActions().map(world.describe))")
        let events = world.apply(action)
        monitors.observe(events, world: world)
    }

    var roamer: Int { world.clientIndex(named: "roamer")! }
}

@Suite("LiveConnectionMonitor (SIG-6, NET-3)")
struct LiveConnectionMonitorTests {
    @Test("another client's later timer cannot move the clock past a pending watchdog, and the watchdog's client is not late")
    func watchdogStillPending() throws {
        var run = try DroppedRoamer()
        #expect(!run.world.enabledActions().contains { run.world.describe($0).hasPrefix("anchor: timer joinAttemptTimeout(1)") })
        #expect(run.monitors.violations.isEmpty, "\(run.monitors.violations.map(\.message))")
        #expect(!run.world.enabledActions().contains { run.world.describe($0).hasPrefix("server: timer ping(client 1") }, "the closed connection's ping timer is cancelled")
        try run.fire("roamer: timer pingWatchdog")
        #expect(run.world.clients[run.roamer].view.local.connectionState == .connecting)
        #expect(run.monitors.violations.isEmpty)
    }

    @Test("a client left connected on a closed connection with no watchdog pending is reported once the watchdog period is over")
    func noWatchdogPending() throws {
        var run = try DroppedRoamer()
        let roamer = run.roamer
        let watchdogs = run.world.pending.entries.filter { if case .timer(roamer, .pingWatchdog) = $0.payload { true } else { false } }
        for entry in watchdogs { run.world.pending.remove(sequence: entry.sequence) }
        try run.fire("anchor: timer joinAttemptTimeout(1)")
        #expect(run.monitors.violations.map(\.invariant) == ["connected-on-a-live-connection"])
    }

    @Test("reconnect.yaml: no violation within 8 actions (it had a false one at depth 7)")
    func reconnectScenarioShallow() throws {
        let report = explore(try checkScenario("reconnect")) { $0.maxDepth = 8 }
        #expect(report.counterexample == nil, "\(report.counterexample.map { "\($0.violation.invariant): \($0.violation.message)" } ?? "")")
    }
}
