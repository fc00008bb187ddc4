import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// ErrorDelegateMonitor (STG-1, STG-4, TOK-3, TOK-4): refused publishes and exchanges reach
/// the error delegate in their step, and an exchangeToken call is refused at once exactly when
/// TOK-4 forbids it. The bundled scenarios with refusals must pass; the forbidden silences are
/// made by hand on the exchange scenario's world.
@Suite("ErrorDelegateMonitor (STG-1, STG-4, TOK-3, TOK-4)")
struct ErrorDelegateMonitorTests {
    static let exchangePath = packageRoot + "/Scenarios/tok-4-immutable-fields-and-origin.yaml"

    @Test("the bundled scenarios with refused exchanges and publishes pass, with errors reported", arguments: [
        "tok-4-immutable-fields-and-origin.yaml", "tok-3-exchange-needs-key-pair-both-ways.yaml", "stg-4-capacity.yaml",
    ])
    func realRuns(file: String) throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/" + file)
        var reported = 0
        let violations = monitoredRun(of: scenario, with: ErrorDelegateMonitor()) { events in
            reported += events.filter { if case .sdkError = $0.kind { true } else { false } }.count
        }.violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        #expect(reported > 0)
    }

    /// The monitor's messages for one step of `host` on the exchange scenario's world after 1 s
    /// (everyone admitted): the events `step` makes from host's held token and info.
    static func verdicts(_ step: (_ held: String, _ info: ParticipantInfo) throws -> [TraceEvent]) throws -> [String] {
        let scenario = try ScenarioLoader.load(path: Self.exchangePath)
        var simulator = Simulator(world: scenario.makeWorld(seed: scenario.seed), seed: scenario.seed)
        simulator.run(until: VirtualTime.zero + .milliseconds(999))
        let world = simulator.world
        let host = try #require(world.clientIndex(named: "host"))
        var monitors = MonitorSet([ErrorDelegateMonitor()])
        monitors.observe(try step(world.clients[host].token, world.clients[host].view.local.info), world: world)
        return monitors.violations.map(\.message)
    }

    static func exchange(_ held: String, changing change: (inout TokenClaims) -> Void) throws -> TraceEvent {
        var claims = try #require(TokenCodec.decodeUnverified(held))
        change(&claims)
        let token = StageKeys.standard.token(.signed(claims, by: .app))
        return TraceEvent(time: .seconds(1), observer: "host", kind: .hostCall(.exchangeToken(token)), replacedToken: held)
    }

    static func error(_ code: StageErrorCode, _ category: StageErrorCategory) -> TraceEvent {
        TraceEvent(time: .seconds(1), observer: "host", kind: .sdkError(SDKErrorReport(error: StageError(code: code, category: category, isFatal: false), reason: "test")))
    }

    @Test("an exchange changing an immutable field must be refused at once, and only such an exchange")
    func exchangeCalls() throws {
        let whip: (inout TokenClaims) -> Void = { $0.whipURL = "https://other.invalid/whip" }
        let user: (inout TokenClaims) -> Void = { $0.userId = "host-v2" }
        #expect(try Self.verdicts { held, _ in [try Self.exchange(held, changing: whip), Self.error(.tokenNotAllowed, .exchangeToken)] }.isEmpty)
        #expect(try Self.verdicts { held, _ in [try Self.exchange(held, changing: user)] }.isEmpty)
        #expect(try Self.verdicts { held, _ in [try Self.exchange(held, changing: whip)] }
            == ["exchangeToken with a token that changes whip_url was not refused at once"])
        #expect(try Self.verdicts { held, _ in [try Self.exchange(held, changing: user), Self.error(.tokenNotAllowed, .exchangeToken)] }
            == ["exchangeToken was refused at once, but the SDK has the API and the token changes no immutable field"])
    }

    @Test("a refused publish or exchange the delegate does not hear is reported")
    func silentRefusals() throws {
        let capacity = StageError(code: .stageAtCapacity, category: .publish, isFatal: false)
        let refusedPublish: (ParticipantInfo) -> TraceEvent = { info in
            TraceEvent(time: .seconds(1), observer: "host", kind: .renderer(.publishStateChanged(info, .errored, capacity)))
        }
        let rejected = TraceEvent(time: .seconds(1), observer: "host", kind: .delivered(.exchangeRejected(StageError(code: .tokenNotAllowed, category: .exchangeToken, isFatal: false), reason: "test"), frame: ""), peer: "server")
        #expect(try Self.verdicts { _, info in [refusedPublish(info), Self.error(.stageAtCapacity, .publish)] }.isEmpty)
        #expect(try Self.verdicts { _, info in [refusedPublish(info)] } == ["its publish was refused with STAGE_AT_CAPACITY, but its error delegate was not told"])
        #expect(try Self.verdicts { _, _ in [rejected, Self.error(.tokenNotAllowed, .exchangeToken)] }.isEmpty)
        #expect(try Self.verdicts { _, _ in [rejected] } == ["the service refused its exchange with TOKEN_NOT_ALLOWED, but its error delegate was not told"])
    }
}
