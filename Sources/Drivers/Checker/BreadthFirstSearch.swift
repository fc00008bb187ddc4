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
///
/// The level waiting to be expanded is compact (`Frontier`): each state is its parent's slot,
/// its own id and its hashes, and a worker re-derives it (the parent stepped with the action
/// the path table holds, not hashed again) when it expands it. A level is worked through in
/// chunks of slices, merging after each, so a parent is released as soon as its last child
/// has been expanded.
struct BreadthFirstSearch {
    let checker: ModelChecker
    private var ledger: SearchLedger

    init(checker: ModelChecker) {
        self.checker = checker
        self.ledger = SearchLedger(checker: checker)
    }

    mutating func run(progress: (CheckProgress) -> Void) -> CheckReport {
        var level = Frontier(root: checker.root)
        var depth = 0
        var bound: String?
        var counterexample: Counterexample?
        while !level.entries.isEmpty {
            guard depth < checker.options.maxDepth else { bound = "depth \(checker.options.maxDepth)"; break }
            let (next, found, full) = advance(&level, keepingParents: depth + 1 < checker.options.maxDepth)
            depth += 1
            progress(ledger.progress(depth: depth, queued: next.entries.count))
            if let found { counterexample = found; break }
            if full { bound = "\(checker.options.maxStates) states"; break }
            ledger.peakFrontier = max(ledger.peakFrontier, next.entries.count)
            level = next
        }
        return ledger.report(depth: depth, bound: bound, counterexample: counterexample)
    }

    /// Expands `level` chunk by chunk and merges each chunk's successors into the next level.
    /// `keepingParents`: whether the next level will be expanded (below the depth bound); if
    /// not, it is only counted and no parent is kept for it.
    private mutating func advance(_ level: inout Frontier, keepingParents: Bool) -> (next: Frontier, found: Counterexample?, full: Bool) {
        var next = Frontier()
        var released = 0
        for start in stride(from: 0, to: level.entries.count, by: Self.chunkSize) {
            let chunk = start..<min(start + Self.chunkSize, level.entries.count)
            let slices = expand(chunk, of: level)
            let keptBefore = next.parents.count
            let (found, full) = merge(slices, into: &next, keepingParents: keepingParents)
            ledger.peakFrontierNodes = max(ledger.peakFrontierNodes, level.parents.count - released + keptBefore + slices.reduce(0) { $0 + $1.children.count })
            if found != nil || full { return (next, found, full) }
            let firstParentStillNeeded = chunk.upperBound < level.entries.count ? Int(level.entries[chunk.upperBound].parent) : level.parents.count
            while released < firstParentStillNeeded {
                level.parents[released] = nil
                released += 1
            }
        }
        return (next, nil, false)
    }

    /// Every successor of every state of `chunk` (positions in `level`), per slice, skipping
    /// states seen in earlier levels and chunks. Each worker gathers what it needs to
    /// re-derive its slice's states (`Frontier.work`) itself: nothing is copied per state
    /// before the workers start.
    private func expand(_ chunk: Range<Int>, of level: Frontier) -> [SliceExpansion] {
        let slices = stride(from: chunk.lowerBound, to: chunk.upperBound, by: Self.sliceSize).map { $0..<min($0 + Self.sliceSize, chunk.upperBound) }
        let results = Mutex([SliceExpansion](repeating: SliceExpansion(), count: slices.count))
        let cursor = Mutex(0)
        let checker = checker
        let visited = ledger.visited
        let paths = ledger.paths
        let mutant = Mutants.current
        DispatchQueue.concurrentPerform(iterations: max(1, min(checker.options.jobs, slices.count))) { _ in
            Mutants.withMutant(mutant) {
                while let slice = Self.claim(cursor, below: slices.count) {
                    let work = slices[slice].map { level.work(at: $0, paths: paths) }
                    let expansion = Self.expand(work, checker: checker, visited: visited)
                    results.withLock { $0[slice] = expansion }
                }
            }
        }
        return results.withLock { $0 }
    }

    /// Re-derives each state of `work` and computes its successors, in order. A successor
    /// already in `visited`, or met earlier in this slice (the merge admits that earlier one
    /// first), is kept as nil: counted, never admitted. No successor's node is kept; a state
    /// the merge admits is re-derived from its parent when its level is expanded.
    private static func expand(_ work: [Frontier.Work], checker: ModelChecker, visited: VisitedStates) -> SliceExpansion {
        var expansion = SliceExpansion()
        var metInSlice = Set<StateKey>()
        var scratch = CanonicalWriter(reservingCapacity: 4096)
        for item in work {
            var node = item.action.map { checker.rederive(item.parent, via: $0, hashes: item.hashes) } ?? item.parent
            node.id = item.id
            for action in checker.actions(from: node) {
                let successor = checker.successor(of: node, via: action, scratch: &scratch).successor
                let seen = successor.violation == nil && (visited.contains(successor.key) || !metInSlice.insert(successor.key).inserted)
                expansion.successors.append(seen ? nil : successor)
            }
            expansion.children.append(node)
        }
        return expansion
    }

    /// Adds the new states of `slices` to the visited set in slice order and to `next` (with
    /// their parent, when `keepingParents`); stops at the first violation or when the state
    /// bound is reached.
    private mutating func merge(_ slices: [SliceExpansion], into next: inout Frontier, keepingParents: Bool) -> (found: Counterexample?, full: Bool) {
        for slice in slices {
            var child = 0
            var keptChildID: Int32 = -1
            for successor in slice.successors {
                ledger.generated += 1
                guard let successor else { continue }
                if let violation = successor.violation {
                    return (Counterexample(actions: ledger.paths.path(to: successor.parent) + [successor.action], violation: violation), false)
                }
                guard let id = ledger.record(successor) else { continue }
                // Children and successors are both in expansion order, so the parent is at or after `child`.
                while slice.children[child].id != successor.parent { child += 1 }
                if keepingParents && keptChildID != successor.parent {
                    next.parents.append(slice.children[child])
                    keptChildID = successor.parent
                }
                next.entries.append(Frontier.Entry(parent: keepingParents ? Int32(next.parents.count - 1) : -1, id: id))
                if keepingParents { next.keepHashes(successor.hashes) }
                if ledger.isFull { return (nil, true) }
            }
        }
        return (nil, false)
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
    /// Entries expanded between two merges: the parents of a level are released a chunk at a time.
    private static let chunkSize = 32 * sliceSize
}

/// A level waiting to be expanded: each of its states as the slot of its parent, held once
/// for all its children, its own id (the path table holds the action from the parent), and
/// the hashes its key was made of (`ModelChecker.StateHashes`, flattened: 8 bytes a world
/// component and a monitor), so that re-deriving it rehashes nothing. A parent's slot is
/// emptied once every state derived from it has been expanded.
struct Frontier {
    /// A state of the level: its parent's slot in `parents` (-1 when the level is never
    /// expanded) and its id in the path table.
    struct Entry {
        var parent: Int32
        var id: Int32
    }

    /// What a worker needs to re-derive a state: its parent, the action from it (nil for the
    /// initial world, which is its own parent), its id and its hashes.
    struct Work {
        var parent: ModelChecker.Node
        var action: Action?
        var id: Int32
        var hashes: ModelChecker.StateHashes
    }

    var parents: [ModelChecker.Node?] = []
    /// In the merge's order, so parents' slots never decrease along it.
    var entries: [Entry] = []
    /// Each entry's component hashes, then its monitor hashes, in the entries' order.
    private var hashes: [UInt64] = []
    private var componentCount = 0
    private var monitorCount = 0

    init() {}

    /// The level holding only the initial world.
    init(root: ModelChecker.Node) {
        parents = [root]
        entries = [Entry(parent: 0, id: root.id)]
    }

    func work(at index: Int, paths: PathTable) -> Work {
        let entry = entries[index]
        guard let parent = parents[Int(entry.parent)] else { preconditionFailure("parent \(entry.parent) released before its child \(entry.id) was expanded") }
        return Work(parent: parent, action: paths.action(to: entry.id), id: entry.id, hashes: hashes(at: index))
    }

    /// Keeps the hashes of the entry just appended.
    mutating func keepHashes(_ state: ModelChecker.StateHashes) {
        (componentCount, monitorCount) = (state.components.count, state.monitors.count)
        hashes.append(contentsOf: state.components)
        hashes.append(contentsOf: state.monitors)
    }

    /// The hashes of entry `index`; none for the initial world, which is never re-derived.
    private func hashes(at index: Int) -> ModelChecker.StateHashes {
        let start = index * (componentCount + monitorCount)
        guard start < hashes.count else { return ModelChecker.StateHashes(components: [], monitors: []) }
        let middle = start + componentCount
        return ModelChecker.StateHashes(components: Array(hashes[start..<middle]), monitors: Array(hashes[middle..<middle + monitorCount]))
    }
}

/// What a worker returns for one slice: the states it re-derived, and each of their
/// successors in order (nil: already visited).
struct SliceExpansion {
    var children: [ModelChecker.Node] = []
    var successors: [ModelChecker.Successor?] = []
}
