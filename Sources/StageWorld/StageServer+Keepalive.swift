import Simulation
import StageCore

/// A timer the stage service sets: the keepalive of one client connection (SIG-6).
public enum ServerTimer: Hashable, Sendable {
    /// Time to ping this connection (and to set the next ping).
    case ping(clientIndex: Int, epoch: Int)
    /// Ping `number` must have been answered by now, or the connection is dropped.
    case pongDeadline(clientIndex: Int, epoch: Int, number: Int)
    /// The publisher interrupted on connection `epoch` must have reconnected by now, or it is
    /// dropped and its stream destroyed (SUB-4).
    case reconnectGrace(clientIndex: Int, epoch: Int)

    /// The client whose connection the timer keeps.
    var clientIndex: Int {
        switch self {
        case .ping(let clientIndex, _), .pongDeadline(let clientIndex, _, _), .reconnectGrace(let clientIndex, _): clientIndex
        }
    }

    /// The connection the timer belongs to.
    var epoch: Int {
        switch self {
        case .ping(_, let epoch), .pongDeadline(_, let epoch, _), .reconnectGrace(_, let epoch): epoch
        }
    }

    /// Whether the timer still belongs to a connection it can act on, `participant` being the
    /// one its client has registered (nil: none): a ping or a pong deadline only on its
    /// connection while it is open, the grace only while its connection is interrupted. A
    /// connection that closed, was replaced or was interrupted never opens again (a rejoin opens
    /// a new one), so a timer that is not live never is again, and the world cancels it
    /// (`World.cancelSpentTimers`). A deadline whose ping was answered stays live and fires as a
    /// no-op: the SIG-6 monitor tells a late pong from one in time by whether its ping's
    /// deadline is still pending when it arrives, and a deadline firing records no event.
    func isLive(for participant: ServerParticipant?) -> Bool {
        isLive(on: participant.map { TimerConnection(epoch: $0.epoch, isInterrupted: $0.isInterrupted) })
    }

    /// `isLive(for:)`, from the registered connection's state alone.
    func isLive(on connection: TimerConnection?) -> Bool {
        guard let connection, connection.epoch == epoch else { return false }
        switch self {
        case .ping, .pongDeadline: return !connection.isInterrupted
        case .reconnectGrace: return connection.isInterrupted
        }
    }
}

/// What the service's timers for a client depend on: the connection it has registered.
struct TimerConnection: Equatable {
    var epoch: Int
    var isInterrupted: Bool
}

extension ServerTimer {

    /// How long after it is set the timer fires.
    func delay(_ keepalive: KeepalivePolicy) -> VirtualDuration {
        switch self {
        case .ping: Mutants.isOn(.slowKeepalivePings) ? keepalive.pingInterval * 2 : keepalive.pingInterval
        case .pongDeadline: keepalive.pongTimeout
        case .reconnectGrace: keepalive.reconnectGrace
        }
    }

    public var summary: String {
        switch self {
        case .ping(let client, let epoch): "ping(client \(client), connection \(epoch))"
        case .pongDeadline(let client, let epoch, let number): "pongDeadline(client \(client), connection \(epoch), ping \(number))"
        case .reconnectGrace(let client, let epoch): "reconnectGrace(client \(client), connection \(epoch))"
        }
    }
}

extension StageServer {
    /// A keepalive timer fired. Timers that are not live (a connection that has since been
    /// replaced or closed) and the deadline of an answered ping change nothing. While
    /// `silenced` (a keepalive silence fault, SIG-6) a ping is not sent, so no answer is
    /// awaited; the next ping is set as usual.
    public mutating func handle(_ timer: ServerTimer, silenced: Bool) -> Reply {
        guard let index = index(ofClient: timer.clientIndex), timer.isLive(for: participants[index]) else { return Reply() }
        switch timer {
        case .ping(let clientIndex, let epoch):
            if silenced { return Reply(timers: [.ping(clientIndex: clientIndex, epoch: epoch)]) }
            participants[index].pingsSent += 1
            let number = participants[index].pingsSent
            return Reply(
                outgoing: [Outgoing(clientIndex: clientIndex, message: .ping, epoch: epoch)],
                timers: [.pongDeadline(clientIndex: clientIndex, epoch: epoch, number: number), .ping(clientIndex: clientIndex, epoch: epoch)]
            )
        case .pongDeadline(_, _, let number):
            guard participants[index].pongsHeard < number || Mutants.isOn(.dropAnsweredConnection) else { return Reply() }
            return connectionLost(at: index, reason: "ping \(number) unanswered")
        case .reconnectGrace(let clientIndex, _):
            let id = participants[index].info.participantId
            var reply = leave(clientIndex: clientIndex)
            reply.events.append(.ejected(participantId: id, reason: "not back within the reconnect grace period"))
            return reply
        }
    }

    /// SIG-6, SUB-4: the connection stopped answering pings and is closed. A publisher is kept
    /// for `keepalive.reconnectGrace` as interrupted, and everyone else is told its stream is;
    /// anyone else (or with no grace) is dropped at once.
    private mutating func connectionLost(at index: Int, reason: String) -> Reply {
        let participant = participants[index]
        let id = participant.info.participantId
        guard !participant.publishedStreams.isEmpty, config.keepalive.reconnectGrace > .zero,
              !Mutants.isOn(.ejectDroppedPublisherAtOnce) else {
            var reply = leave(clientIndex: participant.clientIndex)
            reply.events.append(.ejected(participantId: id, reason: reason))
            return reply
        }
        participants[index].isInterrupted = true
        return Reply(
            outgoing: broadcast(.participantInterrupted(participantId: id), except: participant.clientIndex),
            events: [.interrupted(participantId: id, reason: reason)],
            timers: [.reconnectGrace(clientIndex: participant.clientIndex, epoch: participant.epoch)]
        )
    }

    /// NET-3: a join from a client already admitted (a retried join, STG-3, or a reconnect the
    /// service kept it for, SUB-4) moves the participant to the new connection. Everyone else
    /// hears it reconnected, with its info now: an interrupted stream is back, and an active
    /// composition's layout takes attributes exchanged since (TOK-9). The new connection needs
    /// a token that verifies now (TOK-1), and the service then holds the participant as that
    /// token says (`adopt`); refused, it is dropped at once and its stream destroyed.
    mutating func rejoin(at index: Int, token: String, epoch: Int, now: VirtualTime) -> Reply {
        let clientIndex = participants[index].clientIndex
        let verified: VerifiedToken
        switch verify(token, now: now) {
        case .failure(let rejection):
            let id = participants[index].info.participantId
            var reply = leave(clientIndex: clientIndex)
            reply.outgoing.append(Outgoing(clientIndex: clientIndex, message: .joinRejected(rejection.stageError, reason: rejection.reason), epoch: epoch))
            reply.events += [
                .refused(operation: "join", error: rejection.stageError, reason: rejection.reason),
                .ejected(participantId: id, reason: "its reconnect was refused"),
            ]
            return reply
        case .success(let token):
            verified = token
        }
        participants[index].epoch = epoch
        participants[index].pingsSent = 0
        participants[index].pongsHeard = 0
        participants[index].isInterrupted = false
        let offer = WireMessage.joinAccepted(snapshots(except: clientIndex), connectionId: participants[index].info.participantId)
        var reply = Reply(
            outgoing: [Outgoing(clientIndex: clientIndex, message: offer, epoch: epoch)] + broadcast(.participantReconnected(participants[index].info), except: clientIndex),
            timers: config.keepalive.isEnabled ? [.ping(clientIndex: clientIndex, epoch: epoch)] : []
        )
        if verified.claims != participants[index].claims { reply.merge(adopt(verified, at: index)) }
        return reply
    }

    /// TOK-1: the service holds a participant as the token it last admitted says. A join on a
    /// new connection may carry a token exchanged while the old one was down (or a fresh
    /// `join()` after a `leave()` the service never heard): its claims replace the held ones,
    /// and everyone else hears the update as after an exchange (VIS-1, TOK-7).
    private mutating func adopt(_ verified: VerifiedToken, at index: Int) -> Reply {
        let info = verified.claims.participantInfo(isLocal: false)
        participants[index].claims = verified.claims
        participants[index].origin = verified.origin
        let changedInfo = info != participants[index].info
        participants[index].info = info
        var reply = changedInfo
            ? Reply(outgoing: broadcast(.participantUpdated(info), except: participants[index].clientIndex), events: [.metadataUpdated(info)]) : Reply()
        if !info.capabilities.canPublish { reply.merge(stopPublishing(index, reason: "the token of its new connection does not allow publishing (TOK-7)")) }
        return reply
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
        default: index(ofClient: clientIndex).map { participants[$0].epoch == epoch && !participants[$0].isInterrupted } ?? true
        }
    }
}
