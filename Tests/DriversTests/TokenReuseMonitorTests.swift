import Checking
import Scenario
import Simulation
import StageCore
import Testing
@testable import StageWorld

/// TokenReuseMonitor (TOK-10): a connection the service drops because its token joined again
/// is sent an `ejected` frame in the same step, while its client believes it is connected.
@Suite("TokenReuseMonitor (TOK-10)")
struct TokenReuseMonitorTests {
    static let ejection = TraceEvent(time: .seconds(5), observer: "server", kind: .service(.ejected(participantId: "viewer", reason: "token-reused")))

    /// The subscribed pair's world after "viewer"'s token joined from "pub"'s client: the
    /// service holds the participant id `viewer` on pub's connection, viewer still believes
    /// it is connected; with `told`, an `ejected` frame to viewer is in flight.
    static func world(told: Bool) throws -> World {
        var world = try subscribedPairWorld()
        let viewer = try #require(world.clientIndex(named: "viewer")), pub = try #require(world.clientIndex(named: "pub"))
        let record = try #require(world.server.participants.firstIndex { $0.info.participantId == "viewer" })
        world.server.participants[record].clientIndex = pub
        try #require(world.clients[viewer].view.local.connectionState == .connected)
        if told {
            let frame = Envelope(from: .server, to: .client(viewer), message: .ejected(reason: "token-reused"), epoch: world.clients[viewer].epoch, channelId: "stage-1")
            _ = world.pending.schedule(.delivery(frame), at: world.now + .milliseconds(20))
        }
        return world
    }

    @Test("an earlier holder dropped without an ejected frame is reported; told, it passes")
    func untoldHolder() throws {
        var untold = TokenReuseMonitor(), told = TokenReuseMonitor()
        #expect(untold.observe(Self.ejection, index: 0, world: try Self.world(told: false)).map(\.message)
            == ["the service dropped viewer's connection for its token joining again (viewer), but sent it no ejected frame"])
        #expect(told.observe(Self.ejection, index: 0, world: try Self.world(told: true)).isEmpty)
    }

    @Test("a holder already reconnecting has left the dropped connection and is not judged")
    func reconnectingHolder() throws {
        var world = try Self.world(told: false)
        let viewer = try #require(world.clientIndex(named: "viewer"))
        world.clients[viewer].view.local.connectionState = .connecting
        var monitor = TokenReuseMonitor()
        #expect(monitor.observe(Self.ejection, index: 0, world: world).isEmpty)
    }

    /// The service still holds `viewer` on viewer's own client and no other client holds a
    /// token for it: an ejection for token reuse there was a rejoin treated as a second join.
    @Test("an ejection for token reuse with no other client holding the token is reported")
    func ejectionWithoutAnotherHolder() throws {
        var monitor = TokenReuseMonitor()
        #expect(monitor.observe(Self.ejection, index: 0, world: try subscribedPairWorld()).map(\.message)
            == ["the service dropped viewer's connection for its token joining again, but no other client holds a token for viewer: a join from its own client is a rejoin"])
    }

    @Test("the bundled TOK-10 scenario passes, and the monitor sees its ejection")
    func bundledScenario() throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/tok-10-token-reuse.yaml")
        var ejections = 0
        let violations = monitoredRun(of: scenario, with: TokenReuseMonitor()) { events in
            ejections += events.filter { if case .service(.ejected(_, "token-reused")) = $0.kind { true } else { false } }.count
        }.violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        #expect(ejections == 1)
    }
}
