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
    /// Whether the action opened or closed one of the service's connections (a join, a leave,
    /// an ejection, an interruption or its end: `StageServer.connections` changed).
    public private(set) var connections = false
    /// Whether the action may have left a timer of the service spent: it changed a
    /// registration the service's timers depend on (`StageServer.registrations`: a
    /// connection opened, interrupted or gone, a client's new epoch), or the service set a
    /// timer its connection does not keep live. Otherwise every timer of the service pending
    /// is live as it was.
    public private(set) var serviceTimerConnections = false

    public init() {}

    mutating func insert(client: Int) {
        if !clients.contains(client) { clients.append(client) }
    }

    mutating func insertService() { service = true }

    mutating func insertConnections() {
        service = true
        connections = true
    }

    mutating func insertServiceTimerConnections() {
        service = true
        serviceTimerConnections = true
    }

    /// Adds what `later`, the record of a later action, changed.
    mutating func formUnion(_ later: ChangeRecord) {
        for client in later.clients { insert(client: client) }
        service = service || later.service
        connections = connections || later.connections
        serviceTimerConnections = serviceTimerConnections || later.serviceTimerConnections
    }

    public static func == (left: ChangeRecord, right: ChangeRecord) -> Bool { true }

    public func hash(into hasher: inout Hasher) {}
}

/// What changed since the last action that recorded trace events (`World.changesSinceTrace`).
/// Like `ChangeRecord` it describes the run, not the state, so it takes no part in equality or
/// hashing.
struct UntracedChanges: Hashable, Sendable {
    private(set) var changes = ChangeRecord()
    /// Whether the last action recorded events: the next action's changes start afresh.
    private var traced = true

    /// Adds the changes of one more action, which recorded events (`traced`) or not.
    mutating func add(_ action: ChangeRecord, traced actionTraced: Bool) {
        if traced { changes = action } else { changes.formUnion(action) }
        traced = actionTraced
    }

    static func == (left: UntracedChanges, right: UntracedChanges) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}

/// How many times a part of the world has been written, for readers that skip what has not
/// been written since they last looked. It counts writes, not changes (writing an equal value
/// counts too), and describes the run, not the state, so it takes no part in equality,
/// hashing or the model checker's state key.
public struct WriteCount: Hashable, Sendable {
    public private(set) var value: UInt64 = 0

    public init() {}

    mutating func advance() { value &+= 1 }

    public static func == (left: WriteCount, right: WriteCount) -> Bool { true }

    public func hash(into hasher: inout Hasher) {}
}
