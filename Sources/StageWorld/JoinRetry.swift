import Simulation
import StageCore

/// How long the SDK keeps retrying a join that gets no answer before it reports FAILED (STG-3,
/// ext). Both values are assumed, so both are configurable; the window defaults to 30 s.
public struct JoinRetryPolicy: Hashable, Sendable {
    /// How long one join attempt waits for the stage service before it is sent again.
    public var attemptTimeout: VirtualDuration
    /// How long after the first attempt the SDK stops retrying and reports FAILED.
    public var window: VirtualDuration

    public init(attemptTimeout: VirtualDuration = .seconds(5), window: VirtualDuration = .seconds(30)) {
        self.attemptTimeout = attemptTimeout
        self.window = window
    }
}

/// The join in progress: which attempt is outstanding and when the first one started (STG-3).
public struct JoinAttempt: Hashable, Sendable {
    public var number: Int
    public var firstAttemptAt: VirtualTime
}

/// A timer a client sets on the virtual clock; it fires as a pending event like any message.
public enum ClientTimer: Hashable, Sendable {
    /// Join attempt `attempt` has had no answer for the policy's attempt timeout (STG-3).
    case joinAttemptTimeout(attempt: Int)
    /// No ping has been heard on `connection` since the `pingsHeard`-th (SIG-6).
    case pingWatchdog(connection: Int, pingsHeard: Int)
    /// Time for reconnect attempt `number` (NET-3).
    case reconnectAttempt(Int)

    public var summary: String {
        switch self {
        case .joinAttemptTimeout(let attempt): "joinAttemptTimeout(\(attempt))"
        case .pingWatchdog(let connection, let heard): "pingWatchdog(connection \(connection), \(heard) pings heard): connection lost"
        case .reconnectAttempt(let number): "reconnectAttempt(\(number))"
        }
    }
}

/// What decides whether a client's timer is still live (`Client.isLive`): the client's
/// connection state and number, its join and reconnect attempts, the pings it heard.
struct TimerEvidence {
    var state: ConnectionState
    var joinAttempt: Int?
    var epoch: Int
    var pingsHeard: Int
    var reconnectAttempt: Int?

    init(of client: Client) {
        state = client.view.local.connectionState
        joinAttempt = client.joinAttempt?.number
        epoch = client.epoch
        pingsHeard = client.pingsHeard
        reconnectAttempt = client.reconnectAttempt
    }

    /// `Client.isLive`.
    func isLive(_ timer: ClientTimer) -> Bool {
        switch timer {
        case .joinAttemptTimeout(let number): state == .connecting && joinAttempt == number
        case .pingWatchdog(let connection, let heard): state == .connected && connection == epoch && heard == pingsHeard
        case .reconnectAttempt(let number): state == .connecting && reconnectAttempt == number
        }
    }
}
