@testable import Drivers
import Scenario
import Simulation
import StageWorld
import Testing

/// Monitors may keep state that lasts only until the next action's own event (the silent
/// refresh monitor's quiet observer, left out of the state key for that reason): along random
/// walks through every bundled scenario, no action's trace opens with a renderer event.
@Suite("Step boundaries")
struct StepBoundaryTests {
    @Test("every action's trace opens with its own event, never a renderer event", arguments: IncrementalFingerprintTests.scenarioPaths)
    func traceOpensWithTheAction(path: String) throws {
        let scenario = try ScenarioLoader.load(path: path)
        for walk in 0..<3 as Range<UInt64> {
            var world = scenario.makeWorld(seed: scenario.seed)
            var random = SplitMix64(seed: walk &+ 100)
            for step in 0..<150 {
                let actions = world.enabledActions()
                guard !actions.isEmpty else { break }
                let action = actions[Int(random.next() % UInt64(actions.count))]
                let first = world.applyReportingChanges(action).events.first
                try #require(first?.rendererEvent == nil, "walk \(walk), step \(step), \(action) opened with \(String(describing: first))")
            }
        }
    }
}
