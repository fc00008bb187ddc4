@testable import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import Testing
@testable import StageWorld

/// ReconnectScheduleMonitor (SIG-6, NET-3): a client calls its connection lost only after a
/// whole watchdog without pings, reconnects at its backoff times and gives up only after its
/// last attempt. Real runs must pass; the violating traces are hand-made on the world of
/// `net-3-outage-gives-up.yaml` (keepalive 2 s + 3 s; backoff 1 s x2, cap 8 s, 4 attempts).
@Suite("ReconnectScheduleMonitor (SIG-6, NET-3)")
struct ReconnectScheduleMonitorTests {
    static let outage = packageRoot + "/Scenarios/net-3-outage-gives-up.yaml"

    /// The scenario's world before anything happened, with `one` in `state`.
    static func world(_ state: ConnectionState) throws -> World {
        let scenario = try ScenarioLoader.load(path: outage)
        var world = scenario.makeWorld(seed: scenario.seed)
        let one = try #require(world.clientIndex(named: "one"))
        world.clients[one].view.local.connectionState = state
        return world
    }

    static func event(_ milliseconds: UInt64, _ kind: TraceEvent.Kind) -> TraceEvent {
        TraceEvent(time: .milliseconds(milliseconds), observer: "one", kind: kind)
    }

    /// The events of a connection lost at 10 s and attempts 1..`count` on the policy's times
    /// (1 s, 2 s, 4 s, 8 s after each other), each checked on a world where `one` is connecting.
    static func attempts(_ count: Int, into monitors: inout MonitorSet) throws {
        let connecting = try world(.connecting)
        monitors.observe([event(10_000, .timerFired(.pingWatchdog(connection: 1, pingsHeard: 0)))], world: connecting)
        var at: UInt64 = 10_000
        for (number, wait) in zip(1...count, [1_000, 2_000, 4_000, 8_000] as [UInt64]) {
            at += wait
            monitors.observe([event(at, .timerFired(.reconnectAttempt(number)))], world: connecting)
        }
    }

    @Test("the monitor's own backoff: base x multiplier^(n-1), capped")
    func waits() {
        let policy = ReconnectPolicy()
        #expect((1...8).map { ReconnectScheduleMonitor.wait(beforeAttempt: $0, policy).nanoseconds / 1_000_000_000 } == [1, 2, 4, 8, 16, 30, 30, 30])
        let flat = ReconnectPolicy(backoffBase: .milliseconds(300), backoffMultiplier: 1, backoffCap: .seconds(1), maxAttempts: 3)
        #expect(ReconnectScheduleMonitor.wait(beforeAttempt: 3, flat) == .milliseconds(300))
    }

    @Test("the bundled outage and keepalive scenarios pass, and the outage runs out its attempts", arguments: [
        "net-3-outage-gives-up", "sig-6-keepalive-silence-reconnects", "net-3-partition-reconnect", "sub-4-subscriber-reconnects",
    ])
    func realRuns(_ name: String) throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(name).yaml")
        var attempts: [Int] = []
        let violations = monitoredRun(of: scenario, with: ReconnectScheduleMonitor()) { events in
            for event in events { if case .timerFired(.reconnectAttempt(let number)) = event.kind { attempts.append(number) } }
        }.violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        #expect(!attempts.isEmpty)
        if name == "net-3-outage-gives-up" { #expect(attempts.max() == 5) }
    }

    @Test("attempts on the policy's times and the give-up after the last one pass")
    func onSchedule() throws {
        var monitors = MonitorSet([ReconnectScheduleMonitor()])
        try Self.attempts(4, into: &monitors)
        monitors.observe([Self.event(10_000 + 15_000 + 8_000, .timerFired(.reconnectAttempt(5)))], world: try Self.world(.disconnected))
        #expect(monitors.violations.isEmpty, "\(monitors.violations.map(\.message))")
    }

    @Test("an attempt a backoff too late is reported")
    func lateAttempt() throws {
        var monitors = MonitorSet([ReconnectScheduleMonitor()])
        let connecting = try Self.world(.connecting)
        monitors.observe([Self.event(10_000, .timerFired(.pingWatchdog(connection: 1, pingsHeard: 0)))], world: connecting)
        monitors.observe([Self.event(12_000, .timerFired(.reconnectAttempt(1)))], world: connecting)
        #expect(monitors.violations.map(\.message) == ["reconnect attempt 1 was due at 11.000s and has not happened"])
    }

    @Test("giving up at the last attempt instead of after its wait is reported")
    func earlyGiveUp() throws {
        var monitors = MonitorSet([ReconnectScheduleMonitor()])
        try Self.attempts(3, into: &monitors)
        monitors.observe([Self.event(10_000 + 15_000, .timerFired(.reconnectAttempt(4)))], world: try Self.world(.disconnected))
        #expect(monitors.violations.map(\.message) == ["disconnected at reconnect attempt 4, but it may make 4"])
    }

    @Test("still connecting after the wait that follows the last attempt is reported")
    func noGiveUp() throws {
        var monitors = MonitorSet([ReconnectScheduleMonitor()])
        try Self.attempts(4, into: &monitors)
        monitors.observe([Self.event(10_000 + 15_000 + 8_000, .timerFired(.reconnectAttempt(5)))], world: try Self.world(.connecting))
        #expect(monitors.violations.map(\.message) == ["still connecting after the wait that follows its last attempt (4)"])
    }

    @Test("an attempt that never comes is reported at the next event or the end of the run")
    func missingAttempt() throws {
        var monitors = MonitorSet([ReconnectScheduleMonitor()])
        var world = try Self.world(.connecting)
        monitors.observe([Self.event(10_000, .timerFired(.pingWatchdog(connection: 1, pingsHeard: 0)))], world: world)
        world.now = .milliseconds(11_001)
        monitors.finish(world: world)
        #expect(monitors.violations.map(\.message) == ["reconnect attempt 1 was due at 11.000s and has not happened"])
    }

    @Test("a watchdog that fires before a whole pingInterval + pongTimeout without pings is reported; on time it is not", arguments: [
        (5_000 as UInt64, true), (7_000, false),
    ])
    func watchdogSilence(firesAt milliseconds: UInt64, reported: Bool) throws {
        var monitors = MonitorSet([ReconnectScheduleMonitor()])
        monitors.observe([Self.event(0, .renderer(.connectionStateChanged(.connected, nil)))], world: try Self.world(.connected))
        monitors.observe([Self.event(2_000, .delivered(.ping, frame: #"{"type":"ping"}"#))], world: try Self.world(.connected))
        monitors.observe([Self.event(milliseconds, .timerFired(.pingWatchdog(connection: 1, pingsHeard: 1)))], world: try Self.world(.connecting))
        #expect(monitors.violations.isEmpty != reported, "\(monitors.violations.map(\.message))")
    }
}
