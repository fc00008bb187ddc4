import Simulation
import StageCore
import StageWorld

/// NET-3, STR-2, RND-4/5, VIS-1 as an eventually-property, checked at the end of every run:
/// once faults have healed and nothing but keepalive has happened for `settle`, every
/// connected client's view equals the ground truth held by the stage service and the
/// strategy's answers: the same participants, each publishing the same streams and mute
/// states; each subscription complete and carrying exactly the streams its answer allows;
/// its own publish as the strategy asked; metadata as a mobile >= 1.37.0 SDK may see it.
public struct ConvergenceMonitor: InvariantMonitor {
    public var name: String { "views-converge-when-quiet" }
    public var summary: String { "eventually, once faults heal and the network is quiet for the settle time, every view equals the stage service's" }
    public var rules: [String] { ["NET-3", "STR-2", "RND-4", "RND-5", "VIS-1"] }
    /// How long the network must have been quiet before views must agree.
    public let settle: VirtualDuration
    private var lastActivity: VirtualTime = .zero
    /// Whether a connection was dropped: then clients need their keepalive watchdog and a
    /// reconnect attempt on top of the settle time before their views can agree.
    private var sawDroppedConnection = false

    public init(settle: VirtualDuration = .seconds(5)) { self.settle = settle }

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        if !Self.isKeepalive(event) { lastActivity = max(lastActivity, event.time) }
        if case .service(.ejected) = event.kind { sawDroppedConnection = true }
        if case .service(.interrupted) = event.kind { sawDroppedConnection = true }
        return []
    }

    private static func isKeepalive(_ event: TraceEvent) -> Bool {
        switch event.kind {
        case .delivered(.ping, _), .delivered(.pong, _), .discarded, .protocolError: true
        case .lost(let frame), .duplicate(let frame), .heldForOrder(let frame):
            frame.hasPrefix(#"{"type":"ping""#) || frame.hasPrefix(#"{"type":"pong""#)
        default: false
        }
    }

    public func finish(world: World) -> [Violation] {
        let quietSince = max(lastActivity, world.config.faults.healedAt, Self.lastRetryDue(world))
        guard world.now >= quietSince + requiredQuiet(world) else { return [] }
        return violations(world, because: "quiet since \(quietSince)")
    }

    /// When the last join or reconnect attempt a client has scheduled is due: a client still
    /// backing off (NET-3, STG-3) has work to do, so the network is not quiet before it.
    private static func lastRetryDue(_ world: World) -> VirtualTime {
        world.pending.entries.reduce(.zero) { latest, entry in
            switch entry.payload {
            case .timer(let client, .reconnectAttempt), .timer(let client, .joinAttemptTimeout):
                world.clients[client].view.local.connectionState == .connecting ? max(latest, entry.due) : latest
            default: latest
            }
        }
    }

    /// Nothing can happen but keepalive, so views must agree now, whatever the clock says.
    public func finishWhenQuiescent(world: World) -> [Violation] {
        violations(world, because: "nothing left in flight")
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: its state (the last activity's time, whether a connection dropped) only
    /// feeds `finish`, the timed runs' check. In the model checker its verdict is
    /// `finishWhenQuiescent`, a predicate over the world alone.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}

    private func violations(_ world: World, because reason: String) -> [Violation] {
        var problems: [(String, String)] = []
        for index in world.clients.indices {
            problems += ViewAgreement.differences(clientIndex: index, world: world).map { (world.clients[index].name, $0) }
        }
        return problems.map { observer, message in
            Violation(invariant: name, rules: rules, time: world.now, observer: observer, eventIndex: nil, message: "\(reason), yet \(message)")
        }
    }

    /// The settle time, plus, after partitions or dropped connections, the time a client needs
    /// to notice (its keepalive watchdog) and to make its first reconnect attempt (NET-3).
    private func requiredQuiet(_ world: World) -> VirtualDuration {
        guard sawDroppedConnection || !world.config.faults.partitions.isEmpty else { return settle }
        let backoff = world.clients.map { $0.config.reconnect.backoff(beforeAttempt: 1) }.max() ?? .zero
        return settle + world.config.keepalive.clientWatchdog + backoff
    }
}
