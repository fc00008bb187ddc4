import Dispatch
import Simulation
import StageCore
import StageWorld
import Synchronization

/// Level-by-level search on every core. Workers expand slices of the current level in
/// parallel (reading, never writing, the visited set); one thread then merges their successors
/// in slice order. The merge order is fixed, so state counts and counterexamples are the same
/// for any number of workers, and the first violation met is on a shortest path. The mutant
/// switched on where the search starts is switched on in every worker too.
struct BreadthFirstSearch {
    let checker: ModelChecker
    private var ledger: SearchLedger

    init(checker: ModelChecker) {
        self.checker = checker
        self.ledger = SearchLedger(checker: checker)
    }

    mutating func run(progress: (CheckProgress) -> Void) -> CheckReport {
        var level = [checker.root]
        var depth = 0
        var bound: String?
        var counterexample: Counterexample?
        while !level.isEmpty {
            guard depth < checker.options.maxDepth else { bound = "depth \(checker.options.maxDepth)"; break }
            let (next, found, full) = merge(expand(level))
            depth += 1
            progress(ledger.progress(depth: depth, queued: next.count))
            if let found { counterexample = found; break }
            if full { bound = "\(checker.options.maxStates) states"; break }
            ledger.peakFrontier = max(ledger.peakFrontier, next.count)
            level = next
        }
        return ledger.report(depth: depth, bound: bound, counterexample: counterexample)
    }

    /// Every successor of every node of `level`, per slice, skipping states seen in earlier levels.
    private func expand(_ level: [ModelChecker.Node]) -> [[ModelChecker.Successor]] {
        let slices = stride(from: 0, to: level.count, by: Self.sliceSize).map { $0..<min($0 + Self.sliceSize, level.count) }
        let results = Mutex([[ModelChecker.Successor]](repeating: [], count: slices.count))
        let cursor = Mutex(0)
        let checker = checker
        let visited = ledger.visited
        let mutant = Mutants.current
        DispatchQueue.concurrentPerform(iterations: max(1, min(checker.options.jobs, slices.count))) { _ in
            Mutants.withMutant(mutant) {
                while let slice = Self.claim(cursor, below: slices.count) {
                    let successors = Self.successors(of: level[slices[slice]], checker: checker, visited: visited)
                    results.withLock { $0[slice] = successors }
                }
            }
        }
        return results.withLock { $0 }
    }

    /// Every successor of `nodes`, in order. A state already in `visited`, or met earlier in
    /// this slice (the merge admits that earlier one first), keeps no node: it is released at
    /// once, on the worker, instead of waiting for the merge.
    private static func successors(of nodes: ArraySlice<ModelChecker.Node>, checker: ModelChecker, visited: VisitedStates) -> [ModelChecker.Successor] {
        var successors: [ModelChecker.Successor] = []
        var metInSlice = Set<StateKey>()
        var scratch = CanonicalWriter(reservingCapacity: 4096)
        for node in nodes {
            for action in checker.actions(from: node) {
                var successor = checker.successor(of: node, via: action, scratch: &scratch)
                if successor.violation == nil && (visited.contains(successor.key) || !metInSlice.insert(successor.key).inserted) {
                    successor.node = nil
                }
                successors.append(successor)
            }
        }
        return successors
    }

    /// Adds the new states to the visited set in slice order; stops at the first violation or
    /// when the state bound is reached. Each successor is moved out of its slice, not copied.
    private mutating func merge(_ slices: consuming [[ModelChecker.Successor]]) -> (next: [ModelChecker.Node], found: Counterexample?, full: Bool) {
        var next: [ModelChecker.Node] = []
        for index in slices.indices {
            for position in slices[index].indices {
                ledger.generated += 1
                if let violation = slices[index][position].violation {
                    let successor = slices[index][position]
                    return (next, Counterexample(actions: ledger.paths.path(to: successor.parent) + [successor.action], violation: violation), false)
                }
                guard let node = ledger.admit(&slices[index][position]) else { continue }
                next.append(node)
                if ledger.isFull { return (next, nil, true) }
            }
        }
        return (next, nil, false)
    }

    /// The next slice index for a worker, or nil when all are taken.
    private static func claim(_ cursor: borrowing Mutex<Int>, below count: Int) -> Int? {
        cursor.withLock { next in
            guard next < count else { return nil }
            next += 1
            return next - 1
        }
    }

    private static let sliceSize = 64
}
