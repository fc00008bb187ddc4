/// The parts of a world the model checker hashes apart (its incremental fingerprints): the
/// stage service with its timers, and for each client its own state and its traffic (its
/// link's state, the frames in flight on it, its host calls and its timers). Component 0 is the
/// service, `2i + 1` client `i`'s state, `2i + 2` its traffic.
public struct WorldComponents: Hashable, Sendable {
    /// One bit per component; a world with more than 31 clients marks them all at once.
    private var bits: UInt64 = 0
    private var all = false

    public init() {}

    public mutating func insertService() { bits |= 1 }

    /// Client `index`'s state and traffic.
    public mutating func insert(client index: Int) {
        guard index < 31 else { return all = true }
        bits |= UInt64(3) << UInt64(2 * index + 1)
    }

    /// Client `index`'s traffic only: what is pending for it and its link's state.
    public mutating func insert(trafficOf index: Int) {
        guard index < 31 else { return all = true }
        bits |= UInt64(1) << UInt64(2 * index + 2)
    }

    /// Whether every component is in the set (a world of more than 31 clients, once one changed).
    var containsEveryComponent: Bool { all }

    /// Whether component `component` (0 for the service, `i + 1` for client `i`) is in the set.
    public func contains(component: Int) -> Bool {
        all || (component < 64 && bits & (UInt64(1) << UInt64(component)) != 0)
    }
}
