import Simulation

/// The shortest value a scenario may give each duration that schedules repeating work, so that
/// no setting asks for more events than a run can simulate (issue 13: `attemptTimeout: 1ns`
/// meant 30 billion join attempts). The loader refuses a shorter value at its line and column;
/// the event budget (`EventBudget`) catches what the settings do together.
public enum RepeatingWorkMinimums {
    /// `joinRetry.attemptTimeout` (STG-3): each timeout sends the join again on a new
    /// connection; 100 ms is 300 attempts in the default 30 s window.
    public static let joinAttemptTimeout = VirtualDuration.milliseconds(100)
    /// `keepalive.pingInterval` (SIG-6): every connection is pinged this often.
    public static let pingInterval = VirtualDuration.milliseconds(100)
    /// `keepalive.pongTimeout` (SIG-6): a deadline per ping, and part of the client's watchdog.
    public static let pongTimeout = VirtualDuration.milliseconds(100)
    /// `reconnect.backoff` and `reconnect.cap` (NET-3): each wait ends in a new connection.
    public static let reconnectBackoff = VirtualDuration.milliseconds(100)
    /// `network.retransmit` (NET-2): a lost transmission is sent again after this, doubled per
    /// loss up to 64 times; 10 ms is well under any real TCP's minimum (Linux: 200 ms).
    public static let retransmissionTimeout = VirtualDuration.milliseconds(10)
}

extension ScenarioLoader {
    /// A duration that schedules repeating work, no shorter than `minimum`.
    static func repeatingDuration(_ node: YAMLNode, _ what: String, atLeast minimum: VirtualDuration) throws -> VirtualDuration {
        let value = try duration(node, what)
        guard value >= minimum else {
            throw node.error("\(what) \(value) is shorter than its minimum of \(minimum): it schedules repeating work, and a run could not simulate that many events")
        }
        return value
    }
}
