import Checking
import Simulation
import StageWorld

/// How the checker walks the state graph.
public enum ExplorationOrder: String, Sendable, CaseIterable {
    /// Level by level, on every core: the first violation found has a shortest counterexample.
    case breadthFirst = "bfs"
    /// Deepest first, on one core: less memory; counterexamples need not be shortest.
    case depthFirst = "dfs"
}

/// Bounds and switches of one exploration (`stagesim check`).
public struct CheckOptions: Sendable {
    /// Actions on one path from the initial world.
    public var maxDepth = 100
    /// Distinct states before the search stops.
    public var maxStates = 2_000_000
    /// Transmissions that may be lost on one path (the fault budget, NET-2).
    public var maxDrops = 1
    public var order = ExplorationOrder.breadthFirst
    /// Treat interchangeable participants as one (`Symmetry`).
    public var symmetry = false
    /// Keep whole canonical states instead of fingerprints.
    public var exact = false
    /// Worker threads for breadth-first search.
    public var jobs = 2

    public init() {}
}

/// Where an exploration stands, for the progress line.
public struct CheckProgress: Sendable {
    public var generatedStates: Int
    public var distinctStates: Int
    public var depth: Int
    public var queued: Int
    public var seconds: Double
}

/// A shortest (breadth-first) path from the initial world to a violation.
public struct Counterexample: Sendable {
    public var actions: [Action]
    public var violation: Violation

    public init(actions: [Action], violation: Violation) {
        self.actions = actions
        self.violation = violation
    }
}

/// What an exploration found and how much of the state space it saw.
public struct CheckReport: Sendable {
    public var distinctStates: Int
    /// Successor states computed, visited before or not (TLC's "states generated").
    public var generatedStates: Int
    public var maxDepthReached: Int
    /// Which bound stopped the search; nil when every reachable state within the drop budget was seen.
    public var boundReached: String?
    public var seconds: Double
    public var counterexample: Counterexample?
    /// The interchangeable participants (symmetry on).
    public var symmetryClasses: [[String]]
    /// With symmetry: the states the search stands for, each canonical state counted with
    /// the size of its orbit. Divided by `distinctStates`, the reduction factor.
    public var statesRepresented: Int
    public var collisionProbability: Double
    public var exact: Bool
    /// What the search keeps per distinct state to the end: the visited set and each state's
    /// parent and action (the counterexample paths), in bytes.
    public var storedBytes: Int
    /// The most states waiting to be expanded at once (a breadth-first level, a depth-first stack).
    public var peakFrontier: Int
    /// The most whole nodes (world and monitors) the frontier held at once: a depth-first
    /// stack holds one per waiting state; a breadth-first level holds each parent once, and
    /// its waiting states as `Frontier.Entry`s (`frontierEntryBytes` each).
    public var peakFrontierNodes: Int
    /// The bytes of one waiting state besides the nodes.
    public var frontierEntryBytes: Int

    public var bytesPerState: Double { distinctStates > 0 ? Double(storedBytes) / Double(distinctStates) : 0 }

    public var statesPerSecond: Double { seconds > 0 ? Double(distinctStates) / seconds : 0 }
    public var reductionFactor: Double { distinctStates > 0 ? Double(statesRepresented) / Double(distinctStates) : 1 }
}

/// The model checker: explores every interleaving of the same `World`, `apply` and
/// `enabledActions` the simulator drives (deliveries in any order across links, FIFO within
/// one, timers in due order among themselves, host calls in script order per participant, and
/// up to `maxDrops` losses), runs every invariant monitor on every transition and the
/// eventually-checks in quiescent states, and deduplicates states by the fingerprint of their
/// time-abstracted canonical encoding (Stateright's actor model; TLC's fingerprints).
///
/// A state's key holds the monitors' state too (`MonitorSet.encodeState`), so a later path
/// to the same world with a different monitor history is explored again. Time is discrete:
/// only timers move the clock (`Timekeeping.timersOnly`), and deliveries and host calls may
/// happen at any moment between timer firings, so behaviour only network latency rules out is
/// explored too; the key holds each pending timer's remaining time, not the clock.
/// Depth-first search with a depth bound can prune a state first met deep that is reachable
/// shallower (as in SPIN).
public struct ModelChecker: Sendable {
    public let initial: World
    public let options: CheckOptions
    public let symmetry: Symmetry
    /// The monitors every path starts with (the catalog's unless a test brings its own).
    public let monitors: MonitorSet

    /// `world`: the initial world; the checker keeps its time by timers only
    /// (`Timekeeping.timersOnly`).
    public init(world: World, options: CheckOptions, monitors: MonitorSet = MonitorSet()) {
        var initial = world
        initial.timekeeping = .timersOnly
        self.initial = initial
        self.options = options
        self.monitors = monitors
        self.symmetry = options.symmetry ? Symmetry(world: world) : .none
    }

    /// Explores until a violation, the bounds, or the end of the state space.
    public func run(progress: (CheckProgress) -> Void = { _ in }) -> CheckReport {
        switch options.order {
        case .breadthFirst:
            var search = BreadthFirstSearch(checker: self)
            return search.run(progress: progress)
        case .depthFirst:
            var search = DepthFirstSearch(checker: self)
            return search.run(progress: progress)
        }
    }

    /// One state under exploration: the loop holding its world and monitors (recording
    /// nothing), the drops its path used, the hash of each world component
    /// (`WorldComponents`) and of each monitor's state key (`MonitorSet.stateHashes`), kept
    /// so that a successor rehashes only the components its action changed and the monitors
    /// whose key may have changed.
    struct Node: Sendable {
        var loop: StepLoop
        var drops: Int
        var id: Int32
        var componentHashes: [UInt64]
        var monitorHashes: [UInt64]

        var world: World { loop.world }
        var monitors: MonitorSet { loop.monitors }
    }

    /// A successor of a node through one action: its key, any violation on the way, and the
    /// hashes its key was made of, apart from the node itself (`successor(of:via:scratch:)`
    /// returns both), so that the breadth-first search, which drops the node, holds no copy
    /// of it and re-derives the state later without hashing it again (`Frontier`).
    struct Successor: Sendable {
        var parent: Int32
        var action: Action
        var key: StateKey
        var orbitSize: Int
        var violation: Violation?
        var hashes: StateHashes
    }

    /// A node's component hashes and monitor hashes (`Node`), apart from the node.
    struct StateHashes: Sendable {
        var components: [UInt64]
        var monitors: [UInt64]
    }

    var root: Node {
        var scratch = CanonicalWriter(reservingCapacity: 4096)
        let hashes = (0..<initial.componentCount).map { initial.componentHash($0, scratch: &scratch) }
        let monitorHashes = monitors.stateHashes(world: initial, scratch: &scratch)
        return Node(loop: StepLoop(world: initial, monitors: monitors), drops: 0, id: 0, componentHashes: hashes, monitorHashes: monitorHashes)
    }

    /// The actions the search tries from `node`: drops only while the budget lasts.
    func actions(from node: Node) -> [Action] {
        let all = node.world.enabledActions()
        guard node.drops >= options.maxDrops else { return all }
        return all.filter { if case .drop = $0 { false } else { true } }
    }

    /// Steps `node`'s loop with `action`, every monitor watching, and keys the result: the
    /// successor and its node. `scratch` is the caller's reusable encoding buffer.
    func successor(of node: Node, via action: Action, scratch: inout CanonicalWriter) -> (successor: Successor, node: Node) {
        let (next, step) = self.step(node, via: action, scratch: &scratch)
        var violation = step.violations.first
        if violation == nil && next.loop.world.isQuiescent {
            violation = next.loop.monitors.quiescentViolations(world: next.loop.world).first
        }
        let (key, orbit) = self.key(of: next, scratch: &scratch)
        let hashes = StateHashes(components: next.componentHashes, monitors: next.monitorHashes)
        return (Successor(parent: node.id, action: action, key: key, orbitSize: orbit, violation: violation, hashes: hashes), next)
    }

    /// `node` stepped with `action`, every monitor watching, with the hashes of the components
    /// the action changed and of the monitors' keys that may have changed recomputed; and what
    /// the step did. No key: the caller keys it (`key(of:scratch:)`) when it needs one.
    func step(_ node: Node, via action: Action, scratch: inout CanonicalWriter) -> (node: Node, outcome: StepOutcome) {
        var next = node
        let outcome = next.loop.step(action)
        if case .drop = action { next.drops += 1 }
        rehash(&next, changedBy: outcome, from: node, scratch: &scratch)
        return (next, outcome)
    }

    /// `node` stepped with `action` into a state whose hashes are known already: the
    /// breadth-first search re-deriving a state it keyed when it generated it (`Frontier`).
    func rederive(_ node: Node, via action: Action, hashes: StateHashes) -> Node {
        var next = node
        next.loop.step(action)
        if case .drop = action { next.drops += 1 }
        (next.componentHashes, next.monitorHashes) = (hashes.components, hashes.monitors)
        return next
    }

    /// Recomputes the hashes of `next`, just stepped from `node`, that the step may have
    /// changed: the components it reports, and the monitors' keys (`MonitorSet.updateStateHashes`).
    private func rehash(_ next: inout Node, changedBy outcome: StepOutcome, from node: Node, scratch: inout CanonicalWriter) {
        for component in next.componentHashes.indices where outcome.changed.contains(component: component) {
            next.componentHashes[component] = next.loop.world.componentHash(component, scratch: &scratch)
        }
        let changed = WorldReads(changed: outcome.changed, clientCount: next.world.clients.count, clockMoved: next.world.now != node.world.now)
        next.loop.monitors.updateStateHashes(&next.monitorHashes, since: node.loop.monitors, world: next.loop.world, changed: changed, scratch: &scratch)
    }

    /// The state's key: the drops used, the world and the monitors' state: the world and the
    /// monitors as the combined component and monitor hashes (no symmetry, fingerprints), or
    /// everything as the smallest encoding over the symmetry group (`Symmetry`);
    /// and how many distinct images the state has (its orbit).
    func key(of node: Node, scratch: inout CanonicalWriter) -> (StateKey, Int) {
        guard !symmetry.isTrivial || options.exact else {
            // Both lists have the same length in every state of a run, so chaining them is unambiguous.
            let world = XXH3.hash64(words: node.componentHashes, seed: UInt64(node.drops))
            return (StateKey(fingerprint: XXH3.hash64(words: node.monitorHashes, seed: world), bytes: []), 1)
        }
        let identity = Symmetry.Permutation.identity
        let candidates = symmetry.isTrivial ? [identity] : symmetry.candidates(blurredHashes: blurredHashes(of: node.world, scratch: &scratch))
        var best: StateKey?
        var images = Set<UInt64>()
        for permutation in candidates {
            let candidate = encodedKey(of: node, under: permutation, scratch: &scratch)
            images.insert(candidate.fingerprint)
            if best.map({ Self.precedes(candidate, $0) }) ?? true { best = candidate }
        }
        return (best ?? StateKey(fingerprint: 0, bytes: []), symmetry.groupSize * images.count / candidates.count)
    }

    /// Each client's hash with the members of every class written alike (`Symmetry.blurred`).
    private func blurredHashes(of world: World, scratch: inout CanonicalWriter) -> [UInt64] {
        scratch.nameImages = symmetry.blurred.nameImages
        scratch.clientIndexImages = symmetry.blurred.clientIndexImages
        defer {
            scratch.nameImages = [:]
            scratch.clientIndexImages = []
        }
        return world.clients.indices.map { index in
            scratch.reset()
            world.encodeClient(index, into: &scratch)
            return scratch.hash64()
        }
    }

    /// The drops used, the world and the monitors' state, encoded under one renaming.
    private func encodedKey(of node: Node, under permutation: Symmetry.Permutation, scratch writer: inout CanonicalWriter) -> StateKey {
        writer.reset()
        writer.nameImages = permutation.nameImages
        writer.clientIndexImages = permutation.clientIndexImages
        defer {
            writer.nameImages = [:]
            writer.clientIndexImages = []
        }
        writer.write(node.drops)
        node.world.encodeExplorationState(into: &writer)
        node.monitors.encodeState(into: &writer, world: node.world)
        return StateKey(fingerprint: writer.hash64(), bytes: options.exact ? writer.bytes : [])
    }

    private static func precedes(_ left: StateKey, _ right: StateKey) -> Bool {
        left.bytes.isEmpty ? left.fingerprint < right.fingerprint : left.bytes.lexicographicallyPrecedes(right.bytes)
    }
}

/// What both searches keep: the visited set, each state's path, and the counts the report gives.
struct SearchLedger {
    let checker: ModelChecker
    var visited: VisitedStates
    var paths = PathTable()
    var generated = 0
    var represented = 1
    var peakFrontier = 1
    var peakFrontierNodes = 1
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    /// A ledger holding the initial world.
    init(checker: ModelChecker) {
        self.checker = checker
        visited = VisitedStates(exact: checker.options.exact)
        start = clock.now
        var scratch = CanonicalWriter()
        _ = visited.insert(checker.key(of: checker.root, scratch: &scratch).0)
    }

    var seconds: Double { (clock.now - start).totalSeconds }

    /// Records a successor; returns its node, with its id, to explore, or nil when it was seen
    /// before.
    mutating func admit(_ successor: ModelChecker.Successor, node: consuming ModelChecker.Node) -> ModelChecker.Node? {
        guard let id = record(successor) else { return nil }
        node.id = id
        return node
    }

    /// Records a successor's state as visited and its path; returns the state's id, or nil when
    /// it was seen before.
    mutating func record(_ successor: ModelChecker.Successor) -> Int32? {
        guard visited.insert(successor.key) else { return nil }
        represented += successor.orbitSize
        return paths.add(parent: successor.parent, action: successor.action)
    }

    var isFull: Bool { visited.count >= checker.options.maxStates }

    func progress(depth: Int, queued: Int) -> CheckProgress {
        CheckProgress(generatedStates: generated, distinctStates: visited.count, depth: depth, queued: queued, seconds: seconds)
    }

    func report(depth: Int, bound: String?, counterexample: Counterexample?) -> CheckReport {
        CheckReport(
            distinctStates: visited.count, generatedStates: generated, maxDepthReached: depth, boundReached: bound,
            seconds: seconds, counterexample: counterexample, symmetryClasses: checker.symmetry.classes,
            statesRepresented: represented, collisionProbability: visited.collisionProbability(generated: generated), exact: visited.isExact,
            storedBytes: visited.storedBytes + paths.storedBytes, peakFrontier: peakFrontier,
            peakFrontierNodes: peakFrontierNodes, frontierEntryBytes: checker.options.order == .breadthFirst ? MemoryLayout<Frontier.Entry>.stride : 0
        )
    }
}

/// The actions from the initial world to a state, followed back through each state's parent.
struct PathTable {
    private var parents: [Int32] = [-1]
    private var actions: [Action?] = [nil]

    var count: Int { parents.count }

    /// The bytes the table holds.
    var storedBytes: Int { parents.capacity * MemoryLayout<Int32>.stride + actions.capacity * MemoryLayout<Action?>.stride }

    /// Records a new state reached from `parent` by `action`; returns its id.
    mutating func add(parent: Int32, action: Action) -> Int32 {
        parents.append(parent)
        actions.append(action)
        return Int32(parents.count - 1)
    }

    /// The action that first reached state `id`; nil for the initial world.
    func action(to id: Int32) -> Action? { actions[Int(id)] }

    func path(to id: Int32) -> [Action] {
        var path: [Action] = []
        var current = id
        while current > 0, let action = actions[Int(current)] {
            path.append(action)
            current = parents[Int(current)]
        }
        return path.reversed()
    }
}

extension Duration {
    /// The duration in seconds, as a reporting figure.
    var totalSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
