import Checking
@testable import Drivers
import Foundation
import Scenario
import Simulation
import StageWorld
import Testing

/// The checker rehashes only the components an action reports changed: along random walks
/// through every bundled scenario, those hashes must equal a full rehash after every step, or
/// a stale component would merge two different states. Odd walks keep the checker's time
/// (timers only), where a timer firing moves the clock under every other pending timer.
@Suite("Incremental fingerprints")
struct IncrementalFingerprintTests {
    static let scenarioPaths: [String] = {
        let directories = [packageRoot + "/Scenarios", packageRoot + "/Scenarios/check"]
        return directories.flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { $0.hasSuffix(".yaml") }.sorted().map { directory + "/" + $0 }
        }
    }()

    @Test("the bundled scenarios are found")
    func scenariosFound() {
        #expect(Self.scenarioPaths.count > 50)
    }

    @Test("the component hashes kept step by step equal a full rehash", arguments: scenarioPaths)
    func incrementalEqualsFull(path: String) throws {
        let scenario = try ScenarioLoader.load(path: path)
        for walk in 0..<3 as Range<UInt64> {
            var world = scenario.makeWorld(seed: scenario.seed)
            world.timekeeping = walk % 2 == 0 ? .everyEvent : .timersOnly
            var random = SplitMix64(seed: walk)
            var scratch = CanonicalWriter()
            var hashes = Self.allHashes(world, &scratch)
            for step in 0..<150 {
                let actions = world.enabledActions()
                guard !actions.isEmpty else { break }
                let action = actions[Int(random.next() % UInt64(actions.count))]
                let changed = world.applyReportingChanges(action).changed
                for component in hashes.indices where changed.contains(component: component) {
                    hashes[component] = world.componentHash(component, scratch: &scratch)
                }
                let full = Self.allHashes(world, &scratch)
                try #require(hashes == full, "walk \(walk), step \(step), \(action): a changed component went unreported")
            }
        }
    }

    private static func allHashes(_ world: World, _ scratch: inout CanonicalWriter) -> [UInt64] {
        (0..<world.componentCount).map { world.componentHash($0, scratch: &scratch) }
    }
}
