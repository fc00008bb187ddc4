/// The parts of a world the model checker hashes apart (its incremental fingerprints): the
/// stage service with its timers, and each client with its link's state, the frames in flight
/// on it, its host calls and its timers. Component 0 is the service, component `i + 1` client `i`.
public struct WorldComponents: Hashable, Sendable {
    /// One bit per component; a world with more than 63 clients marks them all at once.
    private var bits: UInt64 = 0
    private var all = false

    public init() {}

    /// Every component of a world.
    public static let everything: WorldComponents = {
        var components = WorldComponents()
        components.all = true
        return components
    }()

    public var isEmpty: Bool { !all && bits == 0 }

    public mutating func insertService() { bits |= 1 }

    public mutating func insert(client index: Int) {
        guard index < 63 else { return all = true }
        bits |= UInt64(1) << UInt64(index + 1)
    }

    /// Whether component `component` (0 for the service, `i + 1` for client `i`) is in the set.
    public func contains(component: Int) -> Bool {
        all || (component < 64 && bits & (UInt64(1) << UInt64(component)) != 0)
    }
}
