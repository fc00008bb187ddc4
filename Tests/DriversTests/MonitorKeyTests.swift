@testable import Checking
@testable import Drivers
import Foundation
import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// One node's encoding under one renaming: `part` writes the world or the monitors.
private func encoding(of node: ModelChecker.Node, under permutation: Symmetry.Permutation, monitors: Bool) -> [UInt8] {
    var writer = CanonicalWriter()
    writer.nameImages = permutation.nameImages
    writer.clientIndexImages = permutation.clientIndexImages
    if monitors { node.monitors.encodeState(into: &writer, world: node.world) } else { node.world.encodeExplorationState(into: &writer) }
    return writer.bytes
}

/// Breadth-first search keyed by the world alone (the key before monitors joined it): each
/// world state keeps the monitors of the first path that reached it. Returns the first
/// violation met, and the first pair of paths that reach one world with different monitors.
private func worldKeyedSearch(_ checker: ModelChecker, depth: Int) -> (violation: Violation?, split: (first: ModelChecker.Node, second: ModelChecker.Node)?) {
    let identity = Symmetry.Permutation.identity
    var visited: [[UInt8]: ModelChecker.Node] = [encoding(of: checker.root, under: identity, monitors: false): checker.root]
    var level = [checker.root]
    var scratch = CanonicalWriter()
    var split: (first: ModelChecker.Node, second: ModelChecker.Node)?
    for _ in 0..<depth where !level.isEmpty {
        var next: [ModelChecker.Node] = []
        for node in level {
            for action in checker.actions(from: node) {
                let (successor, reached) = checker.successor(of: node, via: action, scratch: &scratch)
                if let violation = successor.violation { return (violation, split) }
                let world = encoding(of: reached, under: identity, monitors: false)
                if let first = visited[world] {
                    if split == nil && encoding(of: first, under: identity, monitors: true) != encoding(of: reached, under: identity, monitors: true) {
                        split = (first, reached)
                    }
                    continue
                }
                visited[world] = reached
                next.append(reached)
            }
        }
        level = next
    }
    return (nil, split)
}

private func checker(_ name: String, _ change: (inout CheckOptions) -> Void = { _ in }) throws -> ModelChecker {
    let scenario = try checkScenario(name)
    var options = CheckOptions()
    options.maxDrops = 0
    change(&options)
    return ModelChecker(world: scenario.makeWorld(seed: scenario.seed), options: options)
}

/// Every node of a breadth-first search to `depth` keyed as the checker keys it (world and
/// monitors, no symmetry), each with its identity encoding.
private func fullKeyedNodes(_ checker: ModelChecker, depth: Int) -> [(node: ModelChecker.Node, bytes: [UInt8])] {
    let identity = Symmetry.Permutation.identity
    func bytes(_ node: ModelChecker.Node) -> [UInt8] { encoding(of: node, under: identity, monitors: false) + encoding(of: node, under: identity, monitors: true) }
    var found = [(checker.root, bytes(checker.root))]
    var visited: Set<[UInt8]> = [found[0].1]
    var level = [checker.root]
    var scratch = CanonicalWriter()
    for _ in 0..<depth {
        level = level.flatMap { node in checker.actions(from: node).map { checker.successor(of: node, via: $0, scratch: &scratch).node } }
            .filter { node in
                let key = bytes(node)
                guard visited.insert(key).inserted else { return false }
                found.append((node, key))
                return true
            }
    }
    return found
}

/// A monitor with history no world keeps, for the key's test: which participant made the
/// first host call. Its made-up verdict: p1 connects only in runs that began with p1's call.
/// p1's first call can always be moved to the front of a path without changing its length or
/// where it ends, so a breadth-first search meets every world a violating run passes through
/// first on a path that began with p1's call; only the violating run's monitor state tells
/// the two apart. `keyed` false stands for the world-only key: the monitor writes nothing.
private struct FirstCallerMonitor: InvariantMonitor {
    var name: String { "p1-calls-first" }
    var summary: String { "test only: p1 connects only in runs that began with p1's call" }
    var rules: [String] { [] }
    let keyed: Bool
    private var firstCaller: String?

    init(keyed: Bool) { self.keyed = keyed }

    mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        if case .hostCall = event.kind, firstCaller == nil { firstCaller = event.observer }
        guard firstCaller == "p2", event.observer == "p1", case .renderer(.connectionStateChanged(.connected, _)) = event.kind else { return [] }
        return [violation(event, index: index, "p1 connected in a run that began with p2's call")]
    }

    func encodeState(into writer: inout CanonicalWriter, world: World) {
        if keyed { writer.writeOptionalName(firstCaller) }
    }
}

/// The state key holds the monitors' state (issue 15, "sound keys").
@Suite("Monitor state in the key")
struct MonitorKeyTests {
    @Test("a violation reachable only through a second path to a visited world is found, and missed by a world-only key")
    func violationBehindAVisitedWorld() throws {
        let scenario = try checkScenario("two-peers-lossy")
        func check(keyed: Bool) -> CheckReport {
            var options = CheckOptions()
            options.maxDrops = 0
            options.maxDepth = 4
            let monitors = MonitorSet([FirstCallerMonitor(keyed: keyed)])
            return ModelChecker(world: scenario.makeWorld(seed: scenario.seed), options: options, monitors: monitors).run()
        }
        #expect(check(keyed: false).counterexample == nil, "the world-only key found the violation: the test no longer needs a second path")
        let counterexample = try #require(check(keyed: true).counterexample)
        #expect(counterexample.violation.invariant == "p1-calls-first")
        // Shortest: p2's call, p1's call, p1's join delivered, its answer delivered. The world
        // after the first two actions is the world after them in the other order, which the
        // search met first.
        try #require(counterexample.actions.count == 4)
        func world(after actions: [Action]) -> (bytes: [UInt8], callers: [String]) {
            var world = scenario.makeWorld(seed: scenario.seed)
            var callers: [String] = []
            for action in actions {
                for event in world.apply(action) { if case .hostCall = event.kind { callers.append(event.observer) } }
            }
            var writer = CanonicalWriter()
            world.encodeExplorationState(into: &writer)
            return (writer.bytes, callers)
        }
        let (first, second) = (counterexample.actions[0], counterexample.actions[1])
        let violating = world(after: [first, second]), visitedFirst = world(after: [second, first])
        #expect(violating.callers == ["p2", "p1"] && visitedFirst.callers == ["p1", "p2"])
        #expect(violating.bytes == visitedFirst.bytes)
    }

    @Test("two paths to one world with different monitor histories are two states")
    func secondPathIsExploredAgain() throws {
        let checker = try checker("reconnect")
        let (violation, split) = worldKeyedSearch(checker, depth: 7)
        #expect(violation == nil)
        let (first, second) = try #require(split, "no world reached with two monitor histories")
        let identity = Symmetry.Permutation.identity
        #expect(encoding(of: first, under: identity, monitors: false) == encoding(of: second, under: identity, monitors: false))
        #expect(encoding(of: first, under: identity, monitors: true) != encoding(of: second, under: identity, monitors: true))
        var scratch = CanonicalWriter()
        #expect(checker.key(of: first, scratch: &scratch).0 != checker.key(of: second, scratch: &scratch).0, "the world-only key would have dropped the second history")
    }

    @Test("a mirrored state's monitors encode as the state's image: the key is symmetric")
    func monitorEncodingIsSymmetric() throws {
        let checker = try checker("two-peers-lossy") { $0.symmetry = true }
        let swap = checker.symmetry.permutation([1, 0])
        let nodes = fullKeyedNodes(checker, depth: 8)
        let keys = Set(nodes.map(\.bytes))
        let fresh = encoding(of: checker.root, under: swap, monitors: true)
        #expect(nodes.contains { encoding(of: $0.node, under: swap, monitors: true) != fresh }, "no monitor state to mirror")
        for (node, _) in nodes {
            let image = encoding(of: node, under: swap, monitors: false) + encoding(of: node, under: swap, monitors: true)
            #expect(keys.contains(image), "the image of a reachable state is not a reachable state's encoding")
        }
    }

    @Test("every monitor with state contributes to the key; the others say they write nothing")
    func everyMonitorContributes() throws {
        let stateless: Set = [
            "added-streams-match-answer", "publish-asked-only-with-capability", "no-video-reports-under-audio-only",
            "views-converge-when-quiet", "no-secret-leaves-its-owner", "admitted-tokens-are-valid-then",
            "publish-refused-only-at-capacity", "refusals-name-the-token-defect",
            "cut-links-carry-nothing",
            "notify-metadata-reaches-everyone",
            "exchange-only-with-key-pair-tokens",
            "service-disconnections-name-their-error",
            "quality-fallback-only-where-allowed", "leave-disconnects-at-once", "token-reuse-tells-the-earlier-holder",
            "received-layer-follows-preferences",
            "subscribed-media-connects-the-subscriber",
            "publishes-create-streams-of-their-connection",
            "publishing-follows-the-publish-answer",
            "subscription-requests-cover-held-streams",
            "exchange-adopts-the-accepted-token",
            "errors-reach-the-error-delegate",
        ]
        let fresh = MonitorSet().monitors
        var contributed: Set<String> = []
        let paths = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Scenarios").filter { $0.hasSuffix(".yaml") }.sorted()
        for path in paths {
            let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/" + path)
            var simulator = Simulator(world: scenario.makeWorld(seed: scenario.seed), seed: scenario.seed)
            var monitors = MonitorSet()
            simulator.run(until: VirtualTime.zero + scenario.duration) { _, events, world in
                monitors.observe(events, world: world)
                var whole = CanonicalWriter(), none = CanonicalWriter()
                monitors.encodeState(into: &whole, world: world)
                MonitorSet().encodeState(into: &none, world: world)
                for (monitor, initial) in zip(monitors.monitors, fresh) where !contributed.contains(monitor.name) {
                    var now = CanonicalWriter(), before = CanonicalWriter()
                    monitor.encodeState(into: &now, world: world)
                    initial.encodeState(into: &before, world: world)
                    guard now.bytes != before.bytes else { continue }
                    contributed.insert(monitor.name)
                    #expect(whole.bytes != none.bytes, "\(monitor.name)'s state changed, the set's encoding did not")
                }
            }
        }
        // The publisher-drop monitor's state lives between two service events of one step in
        // every bundled run; fed a step that ends on a publisher's leave, it contributes too.
        let world = try checkScenario("two-peers-lossy").makeWorld(seed: 1)
        var drop = PublisherDropMonitor()
        var before = CanonicalWriter(), after = CanonicalWriter()
        drop.encodeState(into: &before, world: world)
        _ = drop.observe(TraceEvent(time: .zero, observer: "server", kind: .service(.left(participantId: "p1", wasPublishing: true))), index: 0, world: world)
        drop.encodeState(into: &after, world: world)
        #expect(before.bytes != after.bytes)
        contributed.insert(drop.name)
        #expect(contributed == Set(fresh.map(\.name)).subtracting(stateless))
    }
}
