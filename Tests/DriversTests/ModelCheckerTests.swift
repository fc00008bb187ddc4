import Checking
@testable import Drivers
import Foundation
import Scenario
import StageCore
import StageWorld
import Testing

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A check scenario under `Scenarios/check/`, as the checker explores it.
func checkScenario(_ name: String) throws -> Scenario {
    try ScenarioLoader.load(path: packageRoot + "/Scenarios/check/\(name).yaml").forChecking
}

/// Explores `scenario` with `change` applied to the default options (drops off unless set).
func explore(_ scenario: Scenario, _ change: (inout CheckOptions) -> Void = { _ in }) -> CheckReport {
    var options = CheckOptions()
    options.maxDrops = 0
    change(&options)
    return ModelChecker(world: scenario.makeWorld(seed: scenario.seed), options: options).run()
}

/// The searches in process: the state count does not depend on the number of jobs, the order
/// or the state store, and symmetry stands for exactly the states it merges.
@Suite("Model checker searches")
struct ModelCheckerTests {
    @Test("the same state count with one job or two, breadth- or depth-first, fingerprints or exact states")
    func countsAgree() throws {
        let scenario = try checkScenario("immutable-exchange")
        let changes: [(inout CheckOptions) -> Void] = [
            { $0.maxDrops = 1 }, { $0.maxDrops = 1; $0.jobs = 1 }, { $0.maxDrops = 1; $0.order = .depthFirst }, { $0.maxDrops = 1; $0.exact = true },
        ]
        let reports = changes.map { explore(scenario, $0) }
        #expect(reports.allSatisfy { $0.counterexample == nil && $0.boundReached == nil })
        #expect(Set(reports.map(\.distinctStates)).count == 1, "\(reports.map(\.distinctStates))")
    }

    @Test("the breadth-first frontier holds each parent once, and no node for a level the depth bound leaves unexpanded: fewer nodes than waiting states")
    func compactFrontier() throws {
        let scenario = try checkScenario("two-peers-lossy")
        let breadthFirst = explore(scenario) { $0.maxDepth = 3 }
        let depthFirst = explore(scenario) { $0.maxDepth = 3; $0.order = .depthFirst }
        #expect(breadthFirst.peakFrontierNodes < breadthFirst.peakFrontier, "\(breadthFirst.peakFrontierNodes) nodes for \(breadthFirst.peakFrontier) states")
        #expect(breadthFirst.frontierEntryBytes == 8)
        #expect(depthFirst.peakFrontierNodes == depthFirst.peakFrontier && depthFirst.frontierEntryBytes == 0)
    }

    /// The SPIN mirror (`Benchmarks/spin/three-peers.pml`, `PEERS=2`) stores 4,600 states for
    /// this model; the peer comparison only means something while both tools count the same. A
    /// model change that adds state must be mirrored there, and this count moved with it.
    @Test("the two-peer model has exactly the 4,600 states its SPIN mirror stores (K = 0)")
    func spinMirrorCount() throws {
        let report = explore(try checkScenario("two-peers-lossy"))
        #expect(report.boundReached == nil && report.counterexample == nil)
        #expect(report.distinctStates == 4_600)
    }

    @Test("symmetry: the canonical states stand for exactly the states of the search without it")
    func symmetryReduction() throws {
        let scenario = try checkScenario("two-peers-lossy")
        let plain = explore(scenario) { $0.maxDepth = 10 }
        let reduced = explore(scenario) { $0.maxDepth = 10; $0.symmetry = true }
        #expect(reduced.distinctStates < plain.distinctStates)
        #expect(reduced.statesRepresented == plain.distinctStates)
    }
}
