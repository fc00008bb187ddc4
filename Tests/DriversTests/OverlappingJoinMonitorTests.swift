import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// OverlappingJoinMonitor (STG-3): a join() while connecting is told `connecting` with
/// CANCELED, one from disconnected with no error. The bundled retry-window scenario (`twice`
/// joins again 5 ms after its first join) must pass; the wrong answers are made by hand.
@Suite("OverlappingJoinMonitor (STG-3)")
struct OverlappingJoinMonitorTests {
    static let path = packageRoot + "/Scenarios/stg-3-retry-window-and-canceled.yaml"

    @Test("the bundled retry-window scenario passes, with an overlapping join cancelled")
    func realRun() throws {
        let scenario = try ScenarioLoader.load(path: Self.path)
        var canceled = 0
        let violations = monitoredRun(of: scenario, with: OverlappingJoinMonitor()) { events in
            canceled += events.filter { if case .renderer(.connectionStateChanged(.connecting, .some(let error))) = $0.kind { error.code == .canceled } else { false } }.count
        }.violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        #expect(canceled == 1)
    }

    static let canceled = StageError(code: .canceled, category: .join, isFatal: false)

    /// The monitor's messages for `twice` calling join() twice, its renderers told `first` and
    /// then `second` as the errors of `connecting`.
    static func verdicts(first: StageError?, second: StageError?) throws -> [String] {
        let world = try ScenarioLoader.load(path: Self.path).makeWorld(seed: 1)
        var monitors = MonitorSet([OverlappingJoinMonitor()])
        for (at, error) in [(0, first), (5, second)] {
            monitors.observe([
                TraceEvent(time: .milliseconds(UInt64(at)), observer: "twice", kind: .hostCall(.join)),
                TraceEvent(time: .milliseconds(UInt64(at)), observer: "twice", kind: .renderer(.connectionStateChanged(.connecting, error))),
            ], world: world)
        }
        return monitors.violations.map(\.message)
    }

    @Test("an overlapping join not cancelled, or a fresh one cancelled, is reported")
    func wrongAnswersAreReported() throws {
        #expect(try Self.verdicts(first: nil, second: Self.canceled).isEmpty)
        #expect(try Self.verdicts(first: nil, second: nil) == ["join() while connecting was told connecting with no error, not CANCELED"])
        #expect(try Self.verdicts(first: Self.canceled, second: Self.canceled) == ["join() from disconnected was told connecting with CANCELED"])
    }

    @Test("a join() that tells its renderers nothing is reported at the next action")
    func silentJoinIsReported() throws {
        let world = try ScenarioLoader.load(path: Self.path).makeWorld(seed: 1)
        var monitors = MonitorSet([OverlappingJoinMonitor()])
        monitors.observe([TraceEvent(time: .zero, observer: "twice", kind: .hostCall(.join))], world: world)
        monitors.observe([TraceEvent(time: .milliseconds(5), observer: "twice", kind: .hostCall(.refreshStrategy))], world: world)
        #expect(monitors.violations.map(\.message) == ["join() was told no connection state at all"])
    }
}
