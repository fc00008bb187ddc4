import Checking
import Simulation
import StageCore
import Testing
@testable import StageWorld

/// The end-of-run convergence property: quiet worlds agree with the stage service, and a view
/// that disagrees is reported.
@Suite("Convergence when quiet (NET-3, STR-2, RND-4)")
struct ConvergenceMonitorTests {
    private func quietWorld() -> (World, ConvergenceMonitor) {
        let (simulator, events) = simulate(twoClientWorld(), seed: 5, until: .seconds(20))
        var monitor = ConvergenceMonitor(settle: .seconds(5))
        for (index, event) in events.enumerated() { _ = monitor.observe(event, index: index, world: simulator.world) }
        return (simulator.world, monitor)
    }

    @Test("two clients that joined and subscribed agree with the stage once quiet")
    func converged() {
        let (world, monitor) = quietWorld()
        #expect(monitor.finish(world: world).isEmpty)
    }

    @Test("a view that misses a remote's streams, or a participant the stage holds, is reported")
    func divergence() throws {
        var (world, monitor) = quietWorld()
        let alice = try #require(world.clientIndex(named: "alice"))
        let bobId = "bob"
        var tampered = world
        let bob = try #require(tampered.clients[alice].view.index(of: bobId))
        tampered.clients[alice].view[index: bob].addedStreams = []
        #expect(monitor.finish(world: tampered).map(\.message).contains { $0.contains("its renderers have [] of bob") })
        tampered = world
        tampered.clients[alice].view.remove(bobId)
        #expect(monitor.finish(world: tampered).contains { $0.message.contains("it knows participants []") })
        let late = TraceEvent(time: world.now, observer: "alice", kind: .hostCall(.refreshStrategy))
        _ = monitor.observe(late, index: 0, world: world)
        #expect(monitor.finish(world: tampered).isEmpty, "not quiet for the settle time yet: no verdict")
    }
}
