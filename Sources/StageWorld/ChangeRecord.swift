/// Exactly which clients and whether the stage service the last action changed (ARCHITECTURE,
/// "One loop"), so monitors and the world's own bookkeeping look only at what changed instead
/// of at every client: at a thousand participants a pass over all of them per step is the
/// whole cost of a run. Unlike `WorldComponents`, it names every client however many there
/// are. It describes the last step, not the state, so it takes no part in equality or hashing.
public struct ChangeRecord: Hashable, Sendable {
    /// The clients whose state the action changed, each once, in the order they changed.
    public private(set) var clients: [Int] = []
    /// Whether the action changed the stage service's state (or a client's connection, which
    /// the service's view of it depends on).
    public private(set) var service = false

    public init() {}

    mutating func insert(client: Int) {
        if !clients.contains(client) { clients.append(client) }
    }

    mutating func insertService() { service = true }

    public static func == (left: ChangeRecord, right: ChangeRecord) -> Bool { true }

    public func hash(into hasher: inout Hasher) {}
}
