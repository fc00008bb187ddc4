import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// ExchangeOriginMonitor (TOK-3): the service accepts an exchange only from a key-pair token to
/// a key-pair token. The bundled exchange scenario (a service-issued participant refused) must
/// pass; accepted exchanges of each forbidden kind are made by hand on its world.
@Suite("ExchangeOriginMonitor (TOK-3)")
struct ExchangeOriginMonitorTests {
    static let path = packageRoot + "/Scenarios/tok-4-immutable-fields-and-origin.yaml"

    @Test("the bundled exchange scenario passes, with exchanges accepted")
    func realRun() throws {
        let scenario = try ScenarioLoader.load(path: Self.path)
        var accepted = 0
        let violations = monitoredRun(of: scenario, with: ExchangeOriginMonitor()) { events in
            accepted += events.filter { if case .service(.metadataUpdated) = $0.kind { true } else { false } }.count
        }.violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        #expect(accepted > 0)
    }

    /// The monitor's messages for the service accepting `participant`'s exchange to a token
    /// signed by `signer`, on the world the scenario leaves after 1 s (everyone admitted).
    static func verdicts(_ participant: String, exchangesTo signer: TokenSigner) throws -> [String] {
        let scenario = try ScenarioLoader.load(path: Self.path)
        var simulator = Simulator(world: scenario.makeWorld(seed: scenario.seed), seed: scenario.seed)
        simulator.run(until: VirtualTime.zero + .milliseconds(999))
        let world = simulator.world
        let held = try #require(world.server.participant(participant))
        var claims = held.claims
        claims.userId = "\(participant)-new"
        let token = StageKeys.standard.token(.signed(claims, by: signer))
        var monitors = MonitorSet([ExchangeOriginMonitor()])
        monitors.observe([
            TraceEvent(time: .seconds(1), observer: "server", kind: .delivered(.exchangeToken(token), frame: ""), peer: participant),
            TraceEvent(time: .seconds(1), observer: "server", kind: .service(.metadataUpdated(claims.participantInfo(isLocal: false)))),
        ], world: world)
        return monitors.violations.map(\.message)
    }

    @Test("an accepted exchange to a service-issued token, or from one, is reported")
    func forbiddenExchangesAreReported() throws {
        #expect(try Self.verdicts("host", exchangesTo: .app).isEmpty)
        #expect(try Self.verdicts("host", exchangesTo: .service) == ["the service accepted an exchange for host to a token that is not a key-pair token (service)"])
        #expect(try Self.verdicts("serviced", exchangesTo: .app) == ["the service accepted an exchange for serviced, admitted with a service token"])
    }
}
