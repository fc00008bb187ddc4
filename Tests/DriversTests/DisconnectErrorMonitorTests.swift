import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// DisconnectErrorMonitor (STG-2, TOK-1, TOK-10): a disconnection a refused join or an
/// ejection causes reaches the renderers with that error. The bundled token-error and
/// token-reuse scenarios must pass; a refusal reported without its error is made by hand.
@Suite("DisconnectErrorMonitor (STG-2, TOK-1, TOK-10)")
struct DisconnectErrorMonitorTests {
    @Test("the bundled token-error and token-reuse scenarios pass, with disconnections they cause", arguments: [
        "stg-2-token-errors", "tok-1-bad-tokens-never-join", "net-3-refused-reconnect-cleans-up", "tok-10-token-reuse",
    ])
    func realRuns(_ name: String) throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(name).yaml")
        var caused = 0
        let violations = monitoredRun(of: scenario, with: DisconnectErrorMonitor()) { events in
            caused += events.filter {
                switch $0.kind {
                case .delivered(.joinRejected, _), .delivered(.ejected, _): true
                default: false
                }
            }.count
        }.violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        #expect(caused > 0)
    }

    /// The monitor's messages for `late` handling `cause` and telling its renderers
    /// `disconnected` with `told`.
    static func verdicts(_ cause: WireMessage, told: StageError?) throws -> [String] {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/stg-2-token-errors.yaml")
        var monitors = MonitorSet([DisconnectErrorMonitor()])
        monitors.observe([
            TraceEvent(time: .seconds(1), observer: "late", kind: .delivered(cause, frame: ""), peer: "server"),
            TraceEvent(time: .seconds(1), observer: "late", kind: .renderer(.connectionStateChanged(.disconnected, told))),
        ], world: scenario.makeWorld(seed: scenario.seed))
        return monitors.violations.map(\.message)
    }

    @Test("a refused join or an ejection told without its error is reported")
    func missingErrorIsReported() throws {
        let expired = StageError(code: .tokenExpired, category: .join, isFatal: true)
        let refusal = WireMessage.joinRejected(expired, reason: "expired")
        #expect(try Self.verdicts(refusal, told: expired).isEmpty)
        #expect(try Self.verdicts(refusal, told: nil) == ["its renderers were told disconnected with no error after a refused join with TOKEN_EXPIRED"])
        #expect(try Self.verdicts(refusal, told: StageError(code: .failed, category: .join, isFatal: true)).count == 1)
        let ejection = WireMessage.ejected(reason: "token-reused")
        #expect(try Self.verdicts(ejection, told: StageError(code: .participantDisconnected, category: .connection, isFatal: true)).isEmpty)
        #expect(try Self.verdicts(ejection, told: nil).count == 1)
    }
}
