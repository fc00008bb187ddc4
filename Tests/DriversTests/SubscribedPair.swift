import Checking
import Drivers
import Scenario
import Simulation
import StageWorld

/// The world a short run leaves: "pub" publishing, "viewer" connected and subscribed to its
/// audio and video. `keepalive` is the scenario's keepalive line, if any (a long ping
/// interval leaves no frame in flight at the end).
func subscribedPairWorld(keepalive: String? = nil) throws -> World {
    let keepaliveLine = keepalive.map { "keepalive: \($0)\n" } ?? ""
    let scenario = try ScenarioLoader.parse("""
        name: a publisher and a subscribed viewer
        duration: 5s
        \(keepaliveLine)participants:
          - {name: pub, strategy: {publish: true, subscribe: none}}
          - {name: viewer, strategy: {publish: false, subscribe: audioVideo}}
        steps:
          - {at: 0s, participant: pub, call: join}
          - {at: 0s, participant: viewer, call: join}
        """, path: "subscribed-pair.yaml")
    return ScenarioRunner.run(scenario).finalWorld
}

/// A scenario run by the timed simulator for its whole duration with `monitor` alone watching,
/// its end-of-run checks included: the violations and the final world. `eachStep` sees each
/// step's events, so a test can count that what its monitor judges happened at all.
func monitoredRun(of scenario: Scenario, with monitor: some InvariantMonitor, eachStep: ([TraceEvent]) -> Void = { _ in }) -> (violations: [Violation], world: World) {
    var simulator = Simulator(world: scenario.makeWorld(seed: scenario.seed), seed: scenario.seed)
    var monitors = MonitorSet([monitor])
    simulator.run(until: VirtualTime.zero + scenario.duration) { _, events, world in
        monitors.observe(events, world: world)
        eachStep(events)
    }
    monitors.finish(world: simulator.world)
    return (monitors.violations, simulator.world)
}
