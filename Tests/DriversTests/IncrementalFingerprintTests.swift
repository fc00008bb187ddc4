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

    /// The checker keeps each monitor's key hash while the monitor's bytes and the parts of the
    /// world its key reads (`InvariantMonitor.keyReads`) are unchanged: along the checker's own
    /// steps, those hashes must equal every monitor's key hashed afresh, or a `keyReads` that
    /// leaves out a part the key reads would merge two different states.
    @Test("the monitor key hashes kept step by step equal a full rehash", arguments: scenarioPaths)
    func monitorHashesEqualFull(path: String) throws {
        let scenario = try ScenarioLoader.load(path: path)
        let checker = ModelChecker(world: scenario.makeWorld(seed: scenario.seed), options: CheckOptions())
        for walk in 0..<3 as Range<UInt64> {
            var node = checker.root
            var random = SplitMix64(seed: walk)
            var scratch = CanonicalWriter()
            for step in 0..<150 {
                let actions = checker.actions(from: node)
                guard !actions.isEmpty else { break }
                let action = actions[Int(random.next() % UInt64(actions.count))]
                node = checker.step(node, via: action, scratch: &scratch).node
                let full = node.monitors.stateHashes(world: node.world, scratch: &scratch)
                try #require(node.monitorHashes == full, "walk \(walk), step \(step), \(action): a monitor's key changed unnoticed")
            }
        }
    }

    private static func allHashes(_ world: World, _ scratch: inout CanonicalWriter) -> [UInt64] {
        (0..<world.componentCount).map { world.componentHash($0, scratch: &scratch) }
    }
}
