import Checking
import Drivers
import Scenario
import Simulation
import StageCore
@testable import StageWorld
@testable import SubscriberModel
import Testing

/// IdleLinkAgreementMonitor (NET-3, STR-4, TOK-7, ...): a connected client with nothing in
/// flight on its link must agree with the stage service's record at the end of every step
/// that involved it. The worlds are what a real run left (idle links), with one side changed
/// by hand to make the disagreement a model bug would make.
@Suite("IdleLinkAgreementMonitor (NET-3, STR-4, TOK-7)")
struct IdleLinkAgreementMonitorTests {
    static func idleWorld() throws -> World {
        try subscribedPairWorld(keepalive: "{pingInterval: 60s, pongTimeout: 60s}")
    }

    static func violations(after observer: String, on world: World) -> [Violation] {
        var monitors = MonitorSet([IdleLinkAgreementMonitor()])
        let event = TraceEvent(time: .seconds(6), observer: observer, kind: .hostCall(.refreshStrategy))
        monitors.observe([event], world: world)
        return monitors.violations
    }

    @Test("a settled run agrees on every idle link")
    func settledRunAgrees() throws {
        let world = try Self.idleWorld()
        #expect(world.pending.entries.allSatisfy { $0.payload.isTimer })
        #expect(Self.violations(after: "pub", on: world).isEmpty)
        #expect(Self.violations(after: "viewer", on: world).isEmpty)
    }

    @Test("a publisher whose stream change never reached the service is caught once its link is idle (STR-4)")
    func unsentRepublishIsCaught() throws {
        var world = try Self.idleWorld()
        let pub = try #require(world.clientIndex(named: "pub"))
        world.clients[pub].view.local.streams = [LocalStream(kind: .video)]
        world.clients[pub].view.local.publishedStreams = [LocalStream(kind: .video)]
        let found = Self.violations(after: "pub", on: world)
        #expect(found.map(\.invariant) == ["idle-link-views-agree"])
        #expect(found.first?.message.contains("should be publishing") == true, "\(found)")
    }

    @Test("a viewer that missed a publisher's video is caught (RND-4)")
    func missedStreamsAreCaught() throws {
        var world = try Self.idleWorld()
        let viewer = try #require(world.clientIndex(named: "viewer"))
        world.clients[viewer].view[index: 0].addedStreams.removeAll { $0.kind == .video }
        #expect(Self.violations(after: "viewer", on: world).contains { $0.message.contains("its renderers have") })
        #expect(Self.violations(after: "pub", on: world).isEmpty, "only the clients a step involved are judged")
    }

    @Test("a subscriber still reconnecting to a publisher the service holds live is caught (SUB-4)")
    func unresolvedDropIsCaught() throws {
        var world = try Self.idleWorld()
        let viewer = try #require(world.clientIndex(named: "viewer"))
        let slot = try #require(world.clients[viewer].subscribers.firstIndex { $0.publisherId == "pub" })
        world.clients[viewer].subscribers[slot].state.phase = .reconnecting
        let found = Self.violations(after: "viewer", on: world)
        #expect(found.map(\.message) == ["nothing in flight on its link, yet its subscriber to pub-1 is still reconnecting, though pub is back on a live connection"])
        let pub = try #require(world.server.participants.firstIndex { $0.info.participantId == "pub" })
        world.server.participants[pub].isInterrupted = true
        #expect(Self.violations(after: "viewer", on: world).isEmpty, "a publisher still interrupted keeps its subscribers waiting")
    }
}
