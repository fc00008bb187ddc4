import Simulation
import StageCore
import StageWorld

/// SIG-6, NET-3: a client that believes it is connected is on a connection the stage service
/// holds open. It never becomes `connected` on a connection the service has closed (a frame
/// never outlives its connection), and once the service closes the connection it is on, it
/// notices within its keepalive watchdog (ping interval + pong timeout) at the latest. With
/// keepalive off nothing can notice a silent close, so only the first half is checked.
public struct LiveConnectionMonitor: InvariantMonitor {
    public var name: String { "connected-on-a-live-connection" }
    public var summary: String { "a client is connected only on a connection the stage service holds, and notices a closed one within its keepalive watchdog" }
    public var rules: [String] { ["SIG-6", "NET-3"] }
    /// Per client index: since when it has believed itself connected on a closed connection.
    private var closedSince: [Int: VirtualTime] = [:]
    /// Clients already reported for the current disagreement (one violation per episode).
    private var reported: Set<Int> = []
    /// The time of the last watchdog pass; read only within the step that made it.
    private var lastPass: VirtualTime?

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        observe(event, index: index, world: world, sameStepAsPrevious: false)
    }

    /// The watchdog pass reads only the world and the clock, so a second pass in the same
    /// step at the same time finds what the first found (each disagreement is reported once):
    /// it runs once per step and time, not once per event.
    public mutating func observe(_ event: TraceEvent, index: Int, world: World, sameStepAsPrevious: Bool) -> [Violation] {
        var found: [Violation] = []
        if case .renderer(.connectionStateChanged(.connected, _)) = event.kind,
           let client = world.clientIndex(named: event.observer), !Self.holds(world, client) {
            found.append(violation(event, index: index, "became connected on connection \(world.clients[client].epoch), which the stage service has closed"))
        }
        guard world.config.keepalive.isEnabled, !(sameStepAsPrevious && lastPass == event.time) else { return found }
        lastPass = event.time
        var held: HeldConnections?
        for client in passClients(world) {
            guard let message = overdue(client, world: world, held: &held, at: event.time) else { continue }
            found.append(Violation(invariant: name, rules: rules, time: event.time, observer: world.clients[client].name, eventIndex: index, message: message))
        }
        return found
    }

    public func finish(world: World) -> [Violation] {
        guard world.config.keepalive.isEnabled else { return [] }
        var monitor = self
        var held: HeldConnections?
        return world.clients.indices.compactMap { client in
            monitor.overdue(client, world: world, held: &held, at: world.now).map {
                Violation(invariant: name, rules: rules, time: world.now, observer: world.clients[client].name, eventIndex: nil, message: $0)
            }
        }
    }

    public static var keyReads: WorldReads { .clock }

    /// The clients in a disagreement (connected on a closed connection), each with how long
    /// it has lasted (now - since, as the world writes timers by their remaining time, never
    /// the clock), and those already reported for it. The timed half (noticed within the
    /// watchdog) compares that duration with the watchdog; in the checker only timers move the
    /// clock, in due order, so the duration is exact and stays bounded: past the watchdog the
    /// client's current watchdog has fired or the violation is reported.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.writeUnordered(closedSince) { writer, open in
            writer.writeClientIndex(open.key)
            writer.write((world.now - open.value).nanoseconds)
        }
        writer.writeUnordered(reported) { $0.writeClientIndex($1) }
    }

    /// The clients a watchdog pass must look at, in index order: those in a disagreement
    /// (time alone may make theirs overdue) and those changed since the last step with events
    /// (`World.changesSinceTrace`); every client when the service opened or closed a
    /// connection since. Any other client is where the last pass left it: not connected, or
    /// on a connection the service holds.
    private func passClients(_ world: World) -> [Int] {
        let changes = world.changesSinceTrace
        guard !changes.connections else { return Array(world.clients.indices) }
        guard !closedSince.isEmpty else { return changes.clients.sorted() }
        return Set(changes.clients).union(closedSince.keys).sorted()
    }

    /// Whether the service holds the connection the client is on.
    private static func holds(_ world: World, _ client: Int) -> Bool {
        world.server.holdsConnection(clientIndex: client, epoch: world.clients[client].epoch)
    }

    /// Whether the service holds the connection the client is on, from `held`, read once; in
    /// a small world a search of the participants costs less than building the table.
    private static func holds(_ world: World, _ client: Int, in held: inout HeldConnections?) -> Bool {
        guard world.clients.count > HeldConnections.smallestWorldWorthATable else { return holds(world, client) }
        if held == nil { held = HeldConnections(world) }
        return held?.holds(client, epoch: world.clients[client].epoch) ?? false
    }

    /// Whether the client's current ping watchdog (its connection, the pings it has heard), due
    /// within the watchdog period after the close, has not fired yet. Then the client is not
    /// late: both the model checker and the simulator fire timers due at one time one after
    /// the other, in any order.
    private static func watchdogPending(_ world: World, _ client: Int, dueBy deadline: VirtualTime) -> Bool {
        let current = ClientTimer.pingWatchdog(connection: world.clients[client].epoch, pingsHeard: world.clients[client].pingsHeard)
        return world.pending.timers(ofClient: client).contains { $0.due <= deadline && $0.timer == current }
    }

    /// Tracks one client's disagreement; the message when it has lasted past the watchdog.
    /// `held` is read from the world on first need (only a connected client needs it).
    private mutating func overdue(_ client: Int, world: World, held: inout HeldConnections?, at time: VirtualTime) -> String? {
        guard world.clients[client].view.local.connectionState == .connected, !Self.holds(world, client, in: &held) else {
            if closedSince[client] != nil { closedSince[client] = nil }
            if !reported.isEmpty { reported.remove(client) }
            return nil
        }
        let since = closedSince[client] ?? time
        closedSince[client] = since
        let watchdog = world.config.keepalive.clientWatchdog
        guard time - since > watchdog, !Self.watchdogPending(world, client, dueBy: since + watchdog),
              reported.insert(client).inserted else { return nil }
        return "connected since \(since) on connection \(world.clients[client].epoch), which the stage service has closed, longer than the keepalive watchdog (\(watchdog))"
    }
}

/// The connections the stage service holds open, read once per watchdog pass, so the check
/// over every client costs one pass over the service's participants instead of one per client
/// (quadratic at a thousand participants): per client index the epoch of its held connection,
/// with any further held connection of the same client (a reconnect) in `others`.
private struct HeldConnections {
    static let smallestWorldWorthATable = 16
    private static let none = Int.min
    private var epochs: [Int]
    private var others: [ServiceConnection] = []

    init(_ world: World) {
        epochs = Array(repeating: Self.none, count: world.clients.count)
        for connection in world.server.connections {
            if epochs.indices.contains(connection.clientIndex) && epochs[connection.clientIndex] == Self.none {
                epochs[connection.clientIndex] = connection.epoch
            } else {
                others.append(connection)
            }
        }
    }

    func holds(_ client: Int, epoch: Int) -> Bool {
        (epochs.indices.contains(client) && epochs[client] == epoch) || others.contains(ServiceConnection(clientIndex: client, epoch: epoch))
    }
}
