import Simulation
import StageCore
import StageWorld

/// SIG-6, NET-3: a lost connection's timeline follows the client's own settings, worked out
/// here from the settings' numbers, not through the model's `clientWatchdog` or `backoff`, so
/// a wrong duration or count in the model is a disagreement this monitor sees:
/// - the client calls its connection lost (its ping watchdog fires) exactly `pingInterval +
///   pongTimeout` after it connected or last heard a ping, never while pings arrive in time;
/// - reconnect attempt `n` comes `min(base * multiplier^(n-1), cap)` after the previous one
///   (the first after the loss), while the client is still connecting;
/// - only the wait after attempt `maxAttempts` ends the reconnect: `disconnected` then, and
///   not before.
/// A reconnect that succeeds, a refused one and `leave()` end the timeline.
public struct ReconnectScheduleMonitor: InvariantMonitor {
    public var name: String { "reconnect-follows-its-policy" }
    public var summary: String { "a client calls its connection lost only after a whole watchdog without pings, then reconnects at its backoff times and gives up only after its last attempt" }
    public var rules: [String] { ["SIG-6", "NET-3"] }
    /// Per client name, while it is connected with keepalive on: when it connected or last heard a ping.
    private var lastHeard: [String: VirtualTime] = [:]
    /// Per client name, while it is reconnecting: the reconnect timer due next.
    private var nextAttempt: [String: DueAttempt] = [:]

    /// Reconnect attempt `number` (one past the last: the give-up) and when it is due.
    struct DueAttempt: Hashable, Sendable {
        var number: Int
        var due: VirtualTime
    }

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard let client = world.clientIndex(named: event.observer) else { return [] }
        let observer = event.observer
        var found = overdue(observer, at: event.time).map { [violation(event, index: index, $0)] } ?? []
        switch event.kind {
        case .renderer(.connectionStateChanged(.connected, _)):
            nextAttempt[observer] = nil
            if world.config.keepalive.isEnabled { lastHeard[observer] = event.time }
        case .renderer(.connectionStateChanged(.disconnected, _)):
            nextAttempt[observer] = nil
            lastHeard[observer] = nil
        case .delivered(.ping, _) where lastHeard[observer] != nil && world.clients[client].view.local.connectionState == .connected:
            lastHeard[observer] = event.time
        case .timerFired(.pingWatchdog):
            found += watchdogFired(observer, event, index: index, world: world, client: client)
        case .timerFired(.reconnectAttempt(let number)):
            found += attemptFired(number, event, index: index, world: world, client: client)
        default:
            break
        }
        return found
    }

    public func finish(world: World) -> [Violation] {
        nextAttempt.keys.sorted().compactMap { observer in
            overdueMessage(observer, at: world.now).map {
                Violation(invariant: name, rules: rules, time: world.now, observer: observer, eventIndex: nil, message: $0)
            }
        }
    }

    public static var keyReads: WorldReads { .clock }

    /// How long ago each connected client last heard a ping, and how long until each
    /// reconnecting client's next attempt with its number: both durations, as the world writes
    /// its timers by their remaining time, never the clock, and both implied by the world's
    /// pending watchdog and reconnect timer in a run without a violation.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.writeUnordered(lastHeard) { writer, entry in
            writer.writeName(entry.key)
            writer.write((world.now - entry.value).nanoseconds)
        }
        writer.writeUnordered(nextAttempt) { writer, entry in
            writer.writeName(entry.key)
            writer.write(entry.value.number)
            writer.write((entry.value.due - world.now).nanoseconds)
        }
    }

    /// The wait before reconnect attempt `number` (1-based) under `policy` (NET-3).
    static func wait(beforeAttempt number: Int, _ policy: ReconnectPolicy) -> VirtualDuration {
        var wait = policy.backoffBase
        var attempt = 1
        while attempt < number && wait < policy.backoffCap {
            wait = wait * policy.backoffMultiplier
            attempt += 1
        }
        return min(wait, policy.backoffCap)
    }

    private mutating func watchdogFired(_ observer: String, _ event: TraceEvent, index: Int, world: World, client: Int) -> [Violation] {
        let policy = world.clients[client].config.reconnect
        nextAttempt[observer] = DueAttempt(number: 1, due: event.time + Self.wait(beforeAttempt: 1, policy))
        guard let heard = lastHeard.removeValue(forKey: observer) else { return [] }
        let keepalive = world.config.keepalive
        let silence = event.time - heard
        guard silence != keepalive.pingInterval + keepalive.pongTimeout else { return [] }
        return [violation(event, index: index, "called its connection lost after \(silence) without a ping, but its watchdog is pingInterval \(keepalive.pingInterval) + pongTimeout \(keepalive.pongTimeout)")]
    }

    private mutating func attemptFired(_ number: Int, _ event: TraceEvent, index: Int, world: World, client: Int) -> [Violation] {
        guard let expected = nextAttempt[event.observer] else { return [] }
        let policy = world.clients[client].config.reconnect
        var problems: [String] = []
        if number != expected.number || event.time != expected.due {
            problems.append("reconnect attempt \(number) fired at \(event.time), but attempt \(expected.number) was due at \(expected.due)")
        }
        let state = world.clients[client].view.local.connectionState
        if number > policy.maxAttempts {
            nextAttempt[event.observer] = nil
            if state != .disconnected { problems.append("still \(state.rawValue) after the wait that follows its last attempt (\(policy.maxAttempts))") }
        } else {
            nextAttempt[event.observer] = DueAttempt(number: number + 1, due: event.time + Self.wait(beforeAttempt: number + 1, policy))
            if state != .connecting { problems.append("\(state.rawValue) at reconnect attempt \(number), but it may make \(policy.maxAttempts)") }
        }
        return problems.map { violation(event, index: index, $0) }
    }

    /// The message for a reconnect attempt overdue at `time`, reported once (the entry goes).
    private mutating func overdue(_ observer: String, at time: VirtualTime) -> String? {
        guard let message = overdueMessage(observer, at: time) else { return nil }
        nextAttempt[observer] = nil
        return message
    }

    private func overdueMessage(_ observer: String, at time: VirtualTime) -> String? {
        guard let expected = nextAttempt[observer], expected.due < time else { return nil }
        return "reconnect attempt \(expected.number) was due at \(expected.due) and has not happened"
    }
}
