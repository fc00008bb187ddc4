import Checking
@testable import Drivers
import Scenario
import Simulation
import StageWorld
import Testing

/// The drivers share one loop: a schedule a timed run recorded replays through the schedule
/// replay and through the checker's successors to the same world, trace and violations.
@Suite("One step loop")
struct StepLoopTests {
    static let lossy = """
        name: two peers over lossy links
        keepalive: off
        network: {loss: 0.3}
        duration: 20s
        participants:
          - {name: p1, capabilities: [publish, subscribe], strategy: {publish: true, subscribe: audioVideo}}
          - {name: p2, capabilities: [publish, subscribe], strategy: {publish: true, subscribe: audioVideo}}
        steps:
          - {at: 0s, participant: p1, call: join}
          - {at: 0s, participant: p2, call: join}
          - {at: 10s, participant: p1, call: leave}
        """

    @Test("a timed run's schedule replays through MonitoredRun(schedule:) and the checker's successors alike")
    func driversAgree() throws {
        let scenario = try ScenarioLoader.parse(Self.lossy, path: "lossy.yaml")
        let world = scenario.makeWorld(seed: 3)
        let timed = MonitoredRun(world: world, seed: 3, until: .zero + scenario.duration)
        #expect(timed.actions.contains { if case .drop = $0 { true } else { false } })

        let replay = MonitoredRun(world: world, schedule: timed.actions, end: .timed)
        #expect(replay.unplayable == nil)
        #expect(replay.actions == timed.actions)
        #expect(replay.trace.hash == timed.trace.hash)
        #expect(replay.finalWorld.fingerprint() == timed.finalWorld.fingerprint())
        #expect(replay.violations == timed.violations)

        let checker = ModelChecker(world: world, options: CheckOptions())
        var node = checker.root
        var scratch = CanonicalWriter()
        for action in timed.actions {
            node = checker.successor(of: node, via: action, scratch: &scratch).node
        }
        #expect(node.loop.recording == nil)
        #expect(node.world.fingerprint() == timed.finalWorld.fingerprint())
        #expect(node.monitors.violations == timed.violations.filter { $0.eventIndex != nil })

        var simulator = Simulator(world: world, seed: 3, recording: true)
        simulator.run(until: .zero + scenario.duration)
        #expect(simulator.loop.actions == timed.actions)
        #expect(simulator.loop.trace.hash == timed.trace.hash)
    }
}
