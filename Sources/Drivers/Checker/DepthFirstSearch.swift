import Simulation
import StageWorld

/// Depth-first search on one core, with an explicit stack: memory grows with the depth, not
/// with a level. The first violation found is reported; its path need not be the shortest.
struct DepthFirstSearch {
    let checker: ModelChecker
    private var ledger: SearchLedger

    init(checker: ModelChecker) {
        self.checker = checker
        self.ledger = SearchLedger(checker: checker)
    }

    mutating func run(progress: (CheckProgress) -> Void) -> CheckReport {
        var stack = [(node: checker.root, depth: 0)]
        var deepest = 0
        var bound: String?
        var counterexample: Counterexample?
        var scratch = CanonicalWriter(reservingCapacity: 4096)
        search: while let (node, depth) = stack.popLast() {
            guard depth < checker.options.maxDepth else { bound = "depth \(checker.options.maxDepth)"; continue }
            for action in checker.actions(from: node).reversed() {
                ledger.generated += 1
                let (successor, reached) = checker.successor(of: node, via: action, scratch: &scratch)
                if let violation = successor.violation {
                    counterexample = Counterexample(actions: ledger.paths.path(to: node.id) + [action], violation: violation)
                    break search
                }
                guard let next = ledger.admit(successor, node: reached) else { continue }
                stack.append((next, depth + 1))
                ledger.peakFrontier = max(ledger.peakFrontier, stack.count)
                ledger.peakFrontierNodes = ledger.peakFrontier
                deepest = max(deepest, depth + 1)
                if ledger.isFull { bound = "\(checker.options.maxStates) states"; break search }
                if ledger.visited.count % 10_000 == 0 { progress(ledger.progress(depth: deepest, queued: stack.count)) }
            }
        }
        return ledger.report(depth: deepest, bound: bound, counterexample: counterexample)
    }
}
