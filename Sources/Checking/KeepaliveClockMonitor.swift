import Simulation
import StageWorld

/// SIG-6: the stage service keeps each client connection on the keepalive policy's own clock:
/// its first ping `pingInterval` after it registered the connection, each later ping
/// `pingInterval` after the one before, and each ping's pong deadline `pongTimeout` after
/// that ping; an interrupted publisher's reconnect grace (SUB-4) ends `reconnectGrace` after
/// the interruption. The monitor reads the keepalive timers the service set since the last
/// step it saw (from the pending events' index of service timers, by sequence number) and
/// checks their due times with the policy's numbers, worked out here: a ping
/// timer is due one interval after the previous ping timer of its connection (the first one
/// interval after a moment between the last step seen and now), and a pong deadline falls one
/// timeout after one of the connection's ping times. A timer set in a step without events
/// (the ping timer re-arming as it fires) is still pending at the next step the monitor sees,
/// so none escapes it; when several pings fired unseen in a quiet stretch, each of them must
/// have been due by then. A keepalive that pings too seldom, or waits too long or too little for
/// the pong, breaks no other invariant on a healthy link. Timed runs only.
public struct KeepaliveClockMonitor: InvariantMonitor {
    public var name: String { "service-keepalive-keeps-its-clock" }
    public var summary: String { "the service pings each connection every ping interval from its registration, sets each pong deadline one timeout after its ping, and ends a reconnect grace one grace period after the interruption" }
    public var rules: [String] { ["SIG-6", "SUB-4"] }
    /// Per connection the monitor has seen pinged: its first ping time and its latest.
    private var pings: [Connection: PingTimes] = [:]
    /// The pending events' next sequence number at the last step the monitor saw: timers
    /// numbered from it on were set since, and only they are new to the monitor.
    private var scheduledAtLastRead: UInt64 = 0
    /// The clock at the last step the monitor saw.
    private var lastStepSeen: VirtualTime = .zero

    /// One client connection, by client index and connection number.
    struct Connection: Hashable, Sendable {
        var clientIndex: Int
        var epoch: Int
    }

    /// When a connection's first ping timer was due and when its latest is.
    struct PingTimes: Hashable, Sendable {
        var first: VirtualTime
        var latest: VirtualTime
    }

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] { [] }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        let registeredNoEarlierThan = lastStepSeen
        lastStepSeen = world.now
        let policy = world.config.keepalive
        let scheduledBefore = scheduledAtLastRead
        scheduledAtLastRead = world.pending.nextSequence
        guard world.timekeeping == .everyEvent, policy.isEnabled, scheduledAtLastRead != scheduledBefore else { return [] }
        var messages: [(client: Int, text: String)] = []
        var deadlines: [(Connection, VirtualTime)] = []
        let timers = world.clients.indices.lazy.flatMap { world.pending.serviceTimers(forClient: $0) }
        for entry in timers where entry.sequence >= scheduledBefore {
            switch entry.timer {
            case .ping(let client, let epoch):
                let connection = Connection(clientIndex: client, epoch: epoch)
                if let text = pingDisagreement(connection, due: entry.due, policy: policy, registeredIn: registeredNoEarlierThan...world.now) {
                    messages.append((client, text))
                }
            case .pongDeadline(let client, let epoch, _):
                deadlines.append((Connection(clientIndex: client, epoch: epoch), entry.due))
            case .reconnectGrace(let client, let epoch):
                let interrupted = VirtualTime(nanoseconds: entry.due.nanoseconds &- policy.reconnectGrace.nanoseconds)
                if entry.due < VirtualTime.zero + policy.reconnectGrace || !(registeredNoEarlierThan...world.now).contains(interrupted) {
                    messages.append((client, "the reconnect grace of connection \(epoch) ends at \(entry.due), not \(policy.reconnectGrace) after its interruption (between \(registeredNoEarlierThan) and \(world.now))"))
                }
            }
        }
        for (connection, due) in deadlines where !fallsAfterAPing(connection, deadline: due, policy: policy, now: world.now) {
            messages.append((connection.clientIndex, "the pong deadline at \(due) on connection \(connection.epoch) is not \(policy.pongTimeout) after any of its pings (first at \(pings[connection].map { "\($0.first)" } ?? "none"), every \(policy.pingInterval))"))
        }
        return messages.map { message in
            Violation(invariant: name, rules: rules, time: world.now, observer: world.clients[message.client].name, eventIndex: lastEventIndex, message: message.text)
        }
    }

    /// Checks a pending ping timer against the connection's previous one and records it; the
    /// disagreement in words, or nil. A connection seen for the first time was registered
    /// between the last step seen and now, and may have pinged unseen since (a ping's own step
    /// has no events): its timer is due a whole number of intervals after a moment in that window.
    private mutating func pingDisagreement(_ connection: Connection, due: VirtualTime, policy: KeepalivePolicy, registeredIn window: ClosedRange<VirtualTime>) -> String? {
        let interval = policy.pingInterval.nanoseconds
        guard let known = pings[connection] else {
            guard interval > 0, due >= window.lowerBound + policy.pingInterval else {
                return "the first ping of connection \(connection.epoch) is due at \(due), less than \(policy.pingInterval) after the last step seen (\(window.lowerBound))"
            }
            let intervals = (due - window.lowerBound).nanoseconds / interval
            let registered = VirtualTime(nanoseconds: due.nanoseconds - intervals * interval)
            pings[connection] = PingTimes(first: registered + policy.pingInterval, latest: due)
            return registered <= window.upperBound ? nil
                : "the first ping of connection \(connection.epoch) is due at \(due), not a whole number of \(policy.pingInterval) intervals after its registration (between \(window.lowerBound) and \(window.upperBound))"
        }
        guard due != known.latest else { return nil }
        pings[connection]?.latest = due
        return Self.followsInStep(due, previous: known.latest, interval: interval, now: window.upperBound) ? nil
            : "the ping of connection \(connection.epoch) after the one due at \(known.latest) is due at \(due), not \(policy.pingInterval) later"
    }

    /// Whether a ping timer due at `due` follows the one due at `previous`: one interval later,
    /// or `k` intervals when the `k - 1` pings between fired unseen, each by `now` (the service's
    /// ping steps have no events, so a quiet stretch may hold several).
    public static func followsInStep(_ due: VirtualTime, previous: VirtualTime, interval: UInt64, now: VirtualTime) -> Bool {
        guard interval > 0, due > previous, (due - previous).nanoseconds % interval == 0 else { return false }
        let intervals = (due - previous).nanoseconds / interval
        return previous.nanoseconds + (intervals - 1) * interval <= now.nanoseconds
    }

    /// Whether `deadline` is one pong timeout after a ping the connection has sent: its first
    /// ping time plus a whole number of intervals, not after now.
    private func fallsAfterAPing(_ connection: Connection, deadline: VirtualTime, policy: KeepalivePolicy, now: VirtualTime) -> Bool {
        guard let times = pings[connection], deadline >= times.first + policy.pongTimeout, policy.pingInterval.nanoseconds > 0 else { return false }
        let pinged = VirtualTime(nanoseconds: deadline.nanoseconds - policy.pongTimeout.nanoseconds)
        return pinged <= now && (pinged - times.first).nanoseconds % policy.pingInterval.nanoseconds == 0
    }

    public static var keyReads: WorldReads { .clock }

    /// Each pinged connection's first and latest ping times, from now. (Empty under the model
    /// checker, which this monitor does not judge.)
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.writeUnordered(pings) { writer, entry in
            writer.writeClientIndex(entry.key.clientIndex)
            writer.write(entry.key.epoch)
            writer.write(Int(entry.value.first.nanoseconds) - Int(world.now.nanoseconds))
            writer.write(Int(entry.value.latest.nanoseconds) - Int(world.now.nanoseconds))
        }
    }
}
