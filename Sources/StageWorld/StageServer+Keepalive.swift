import Simulation

/// A timer the stage service sets: the keepalive of one client connection (SIG-6).
public enum ServerTimer: Hashable, Sendable {
    /// Time to ping this connection (and to set the next ping).
    case ping(clientIndex: Int, epoch: Int)
    /// Ping `number` must have been answered by now, or the connection is dropped.
    case pongDeadline(clientIndex: Int, epoch: Int, number: Int)

    /// How long after it is set the timer fires.
    func delay(_ keepalive: KeepalivePolicy) -> VirtualDuration {
        switch self {
        case .ping: keepalive.pingInterval
        case .pongDeadline: keepalive.pongTimeout
        }
    }

    public var summary: String {
        switch self {
        case .ping(let client, let epoch): "ping(client \(client), connection \(epoch))"
        case .pongDeadline(let client, let epoch, let number): "pongDeadline(client \(client), connection \(epoch), ping \(number))"
        }
    }
}

extension StageServer {
    /// A keepalive timer fired. Timers of a connection that has since been replaced or closed
    /// change nothing.
    public mutating func handle(_ timer: ServerTimer) -> Reply {
        switch timer {
        case .ping(let clientIndex, let epoch):
            guard let index = index(ofClient: clientIndex), participants[index].epoch == epoch else { return Reply() }
            participants[index].pingsSent += 1
            let number = participants[index].pingsSent
            return Reply(
                outgoing: [Outgoing(clientIndex: clientIndex, message: .ping, epoch: epoch)],
                timers: [.pongDeadline(clientIndex: clientIndex, epoch: epoch, number: number), .ping(clientIndex: clientIndex, epoch: epoch)]
            )
        case .pongDeadline(let clientIndex, let epoch, let number):
            guard let index = index(ofClient: clientIndex), participants[index].epoch == epoch,
                  participants[index].pongsHeard < number else { return Reply() }
            let id = participants[index].info.participantId
            var reply = leave(clientIndex: clientIndex)
            reply.events.append(.ejected(participantId: id, reason: "ping \(number) unanswered"))
            return reply
        }
    }

    mutating func pong(clientIndex: Int) -> Reply {
        guard let index = index(ofClient: clientIndex) else { return Reply() }
        participants[index].pongsHeard += 1
        return Reply()
    }

    /// Whether a message on connection `epoch` from this client still belongs to its current
    /// connection; joins open a connection and a leave is honoured from any.
    func accepts(_ message: WireMessage, from clientIndex: Int, epoch: Int) -> Bool {
        switch message {
        case .join, .leave: true
        default: index(ofClient: clientIndex).map { participants[$0].epoch == epoch } ?? true
        }
    }
}
