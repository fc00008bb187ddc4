import Drivers
import Simulation
@testable import StageWorld
import Testing

/// `World.changesSinceTrace`, which monitors that look only at what changed rely on: after each
/// action it holds exactly the union of the action records (`World.changes`) since the last
/// action that recorded events, so a change made by an action without events is not lost.
@Suite("Changes since the last traced action")
struct ChangesSinceTraceTests {
    @Test("a silent action's changes are carried to the next action with events, then start afresh")
    func carriesSilentChanges() throws {
        var simulator = Simulator(world: twoClientWorld(), seed: 3)
        var expected: (clients: Set<Int>, service: Bool, connections: Bool) = ([], false, false)
        var lastTraced = true
        var carriedSilentChange = false
        var sawConnectionChange = false
        while let (_, outcome) = simulator.step(until: .seconds(20)) {
            let changes = simulator.world.changes
            if lastTraced { expected = ([], false, false) }
            if !lastTraced && (expected.service || !expected.clients.isEmpty) && !outcome.events.isEmpty { carriedSilentChange = true }
            expected.clients.formUnion(changes.clients)
            expected.service = expected.service || changes.service
            expected.connections = expected.connections || changes.connections
            sawConnectionChange = sawConnectionChange || changes.connections
            let record = simulator.world.changesSinceTrace
            #expect(Set(record.clients) == expected.clients && record.clients.count == expected.clients.count)
            #expect(record.service == expected.service && record.connections == expected.connections)
            lastTraced = !outcome.events.isEmpty
        }
        #expect(carriedSilentChange, "the service's pings record no event, so some traced action must carry an earlier change")
        #expect(sawConnectionChange, "the joins open connections")
    }
}
