import StageWorld

/// Depth-first search on one core, with an explicit stack: memory grows with the depth, not
/// with a level. The first violation found is reported; its path need not be the shortest.
struct DepthFirstSearch {
    let checker: ModelChecker
    private var visited: VisitedStates
    private var paths = PathTable()
    private var generated = 0
    private var represented = 1
    private let clock = ContinuousClock()

    init(checker: ModelChecker) {
        self.checker = checker
        self.visited = VisitedStates(exact: checker.options.exact)
    }

    mutating func run(progress: (CheckProgress) -> Void) -> CheckReport {
        let start = clock.now
        let root = checker.root
        _ = visited.insert(checker.key(of: root).0)
        var stack = [(node: root, depth: 0)]
        var deepest = 0
        var bound: String?
        var counterexample: Counterexample?
        search: while let (node, depth) = stack.popLast() {
            guard depth < checker.options.maxDepth else { bound = "depth \(checker.options.maxDepth)"; continue }
            for action in checker.actions(from: node).reversed() {
                generated += 1
                let successor = checker.successor(of: node, via: action)
                if let violation = successor.violation {
                    counterexample = Counterexample(actions: paths.path(to: node.id) + [action], violation: violation)
                    break search
                }
                guard var next = successor.node, visited.insert(successor.key) else { continue }
                next.id = paths.add(parent: node.id, action: action)
                represented += successor.orbitSize
                stack.append((next, depth + 1))
                deepest = max(deepest, depth + 1)
                if visited.count >= checker.options.maxStates { bound = "\(checker.options.maxStates) states"; break search }
                if visited.count % 10_000 == 0 {
                    progress(CheckProgress(generatedStates: generated, distinctStates: visited.count, depth: deepest, queued: stack.count, seconds: (clock.now - start).totalSeconds))
                }
            }
        }
        return CheckReport(
            distinctStates: visited.count, generatedStates: generated, maxDepthReached: deepest, boundReached: bound,
            seconds: (clock.now - start).totalSeconds, counterexample: counterexample, symmetryClasses: checker.symmetry.classes,
            statesRepresented: represented, collisionProbability: visited.collisionProbability(generated: generated), exact: visited.isExact
        )
    }
}
