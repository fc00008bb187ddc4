import Signaling
import Simulation
import StageCore
import StageWorld

/// TOK-2, TOK-8: the stage service enforces the subscribe capability itself. It never grants a
/// subscription (sends `subscribeAccepted`) to a client whose token, as the service holds it,
/// lacks `allow_subscribe`. The verdict reads the service's verified token, not what the
/// client believes, so a client and a service that agree on a wrong capability are caught.
public struct SubscribeEnforcementMonitor: InvariantMonitor {
    public var name: String { "service-enforces-subscribe-capability" }
    public var summary: String { "the stage service grants a subscription only to a client whose token (as the service holds it) allows subscribing" }
    public var rules: [String] { ["TOK-2", "TOK-8"] }
    /// Pending events scheduled from this sequence on are new since the last observed event;
    /// they are looked up by sequence number, so a subscribe costs the frames it caused, not
    /// a pass over the whole queue (at a thousand participants that pass was 7% of a run).
    private var firstNewSequence: UInt64 = 0

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        defer { firstNewSequence = world.pending.nextSequence }
        guard event.observer == "server", case .delivered(.subscribe, _) = event.kind else { return [] }
        for sequence in firstNewSequence..<max(firstNewSequence, world.pending.nextSequence) {
            guard case .delivery(let envelope) = world.pending.entry(sequence: sequence)?.payload, case .client(let client) = envelope.to,
                  case .success(.subscribeAccepted(let publisherId)) = envelope.decoded(),
                  let subscriber = world.server.participants.first(where: { $0.clientIndex == client }),
                  !subscriber.claims.capabilities.canSubscribe else { continue }
            return [violation(event, index: index, "the stage service gave \(subscriber.info.participantId) a subscription to \(publisherId), but its token does not allow subscribing")]
        }
        return []
    }

    public static var keyReads: WorldReads { .pending }

    /// Where the next events' sequence numbers start, relative to the world's next sequence
    /// number (ever-growing sequence numbers stay out of the key, as in the world's encoding).
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.write(Int(Int64(bitPattern: world.pending.nextSequence &- firstNewSequence)))
    }
}

/// SIG-6: the service's keepalive decides a connection by its pongs. A connection whose pong
/// for ping `n` has not arrived `pongTimeout` after the ping is dropped (ejected, or kept as
/// interrupted) then, and is never held open past that deadline; a connection that answered
/// ping `n` in time is never dropped for it. Pongs answer pings in order. A pong is counted by
/// its frame's Sora `type`, whatever the service decoded it to.
public struct KeepaliveVerdictMonitor: InvariantMonitor {
    public var name: String { "pong-deadline-decides-the-connection" }
    public var summary: String { "a connection whose pong is pongTimeout late is dropped at the deadline, and one that answered in time is not dropped for it" }
    public var rules: [String] { ["SIG-6"] }
    /// Per client index: the participant and connection the service last held for it, and how
    /// many pongs the service has been delivered on that connection, counted here from the
    /// trace (a pong the service delivers is on the connection it holds; one from an older
    /// connection is discarded, not delivered). The count starts at zero on each new
    /// connection, whatever the service's own counter says. Indexed by client, not keyed by
    /// participant id: it is read for every participant at every pong.
    private var pongsHeard = ClientIndexed<PongsHeard>()
    /// Per participant id: the client of its latest connection counted, whose entry a drop of
    /// that participant is judged by (an earlier connection of the id, on another client, was
    /// dropped before it: the service holds one connection per participant id, TOK-10).
    private var latestClient: [String: Int] = [:]
    /// The last frame read by `isPong` and what it read: the service hears the same few ping
    /// and pong texts again and again. A cache of a pure function, no state any verdict reads.
    private var lastFrameRead: (frame: String, isPong: Bool)?

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        observe(event, index: index, world: world, sameStepAsPrevious: false)
    }

    /// The entries follow the service's connections: they are brought up to date at the first
    /// event of a step after the service opened or closed one (`World.changesSinceTrace`).
    public mutating func observe(_ event: TraceEvent, index: Int, world: World, sameStepAsPrevious: Bool) -> [Violation] {
        if !sameStepAsPrevious && world.changesSinceTrace.connections { followConnections(world) }
        guard event.observer == "server" else { return [] }
        switch event.kind {
        case .delivered(.pong, let frame), .delivered(.ping, let frame):
            // A pong is what its frame says it is, read here with the Sora vocabulary (SIG-1),
            // not the stage message the service decoded: a decoder that takes a pong for a
            // ping would otherwise agree with itself about the drop that follows.
            guard readsAsPong(frame) else { return [] }
            let found = overdue(world).map { violation(event, index: index, $0) }
            countPong(from: event.peer, world: world)
            return found
        case .service(.ejected(let id, let reason)), .service(.interrupted(let id, let reason)):
            guard let number = Self.unansweredPing(reason), let heard = droppedConnection(of: id), heard.count >= number else { return [] }
            return [violation(event, index: index, "\(id) answered ping \(number) in time (\(heard.count) pongs heard on connection \(heard.epoch)), yet the service dropped it for that ping")]
        default:
            return []
        }
    }

    /// Starts a count at zero for every participant on a connection not counted yet.
    private mutating func followConnections(_ world: World) {
        let participants = world.server.participants
        for index in participants.indices where entry(participants, index) == nil {
            start(PongsHeard(participantId: participants[index].info.participantId, epoch: participants[index].epoch, count: 0), client: participants[index].clientIndex)
        }
    }

    /// Counts a connection not counted before on `client`.
    private mutating func start(_ heard: PongsHeard, client: Int) {
        pongsHeard[client] = heard
        latestClient[heard.participantId] = client
    }

    /// The entry of `participants[index]`'s client if it is of that participant, on any
    /// connection.
    private func heardEntry(_ participants: [ServerParticipant], _ index: Int) -> PongsHeard? {
        let client = participants[index].clientIndex
        guard let heard = pongsHeard[client],
              heard.participantId == participants[index].info.participantId else { return nil }
        return heard
    }

    /// The entry counting `participants[index]`'s current connection, if any.
    private func entry(_ participants: [ServerParticipant], _ index: Int) -> PongsHeard? {
        heardEntry(participants, index).flatMap { $0.epoch == participants[index].epoch ? $0 : nil }
    }

    /// The count of the connection the service has just dropped for participant `id`: that of
    /// its latest connection.
    private func droppedConnection(of id: String) -> PongsHeard? {
        guard let client = latestClient[id], let heard = pongsHeard[client], heard.participantId == id else { return nil }
        return heard
    }

    /// One more pong heard on the connection the service holds for the client named `peer`.
    private mutating func countPong(from peer: String?, world: World) {
        let participants = world.server.participants
        guard let peer, let client = world.clientIndex(named: peer),
              let index = participants.firstIndex(where: { $0.clientIndex == client }) else { return }
        guard let known = entry(participants, index)?.count else {
            return start(PongsHeard(participantId: participants[index].info.participantId, epoch: participants[index].epoch, count: 1), client: client)
        }
        pongsHeard[client]?.count = known + 1
    }

    public func finish(world: World) -> [Violation] {
        overdue(world).map { Violation(invariant: name, rules: rules, time: world.now, observer: "server", eventIndex: nil, message: $0) }
    }

    public static var keyReads: WorldReads { .service }

    /// For each participant the service holds: whether the pongs heard are on its current
    /// connection, and how many pongs it has heard since (the world writes its own counters
    /// only as the pings unanswered, so the absolute counts stay out here too; a verdict
    /// compares pong counts with ping numbers, and both differences are in the key). An entry
    /// of a participant the service no longer holds is left out: it is read only when the
    /// service drops that participant, which it must hold first, and every change of the
    /// service's connections brings the entries up to date. When no participant held has an
    /// entry (no connection yet) each would say nothing is heard, which the world implies, so
    /// nothing is written.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        let participants = world.server.participants
        guard participants.indices.contains(where: { heardEntry(participants, $0) != nil }) else {
            return writer.write(UInt32(0))
        }
        writer.writeUnordered(participants.indices) { writer, index in
            writer.writeName(participants[index].info.participantId)
            guard let heard = heardEntry(participants, index) else { return writer.write(UInt8(0)) }
            let current = heard.epoch == participants[index].epoch
            writer.write(UInt8(current ? 1 : 2))
            if current { writer.write(participants[index].pongsHeard - heard.count) }
        }
    }

    /// "ping N unanswered": the ping a keepalive drop names.
    private static func unansweredPing(_ reason: String) -> Int? {
        let words = reason.split(separator: " ")
        guard words.count == 3, words[0] == "ping", words[2] == "unanswered" else { return nil }
        return Int(words[1])
    }

    /// Open connections with a ping whose deadline has passed (its timer is no longer pending)
    /// without a pong heard before it: counted from the pongs heard at the last observation,
    /// so a pong that has just arrived late still counts as late.
    private func overdue(_ world: World) -> [String] {
        let participants = world.server.participants
        var found: [String] = []
        for index in participants.indices {
            let answered = answered(participants, index), sent = participants[index].pingsSent
            guard sent > answered, world.server.holdsConnection(ofParticipantAt: index) else { continue }
            let (client, epoch) = (participants[index].clientIndex, participants[index].epoch)
            // The first unanswered ping whose deadline is no longer pending, looked up in the
            // pending index.
            guard let late = ((answered + 1)...sent).first(where: { number in
                !world.pending.isPending(.pongDeadline(clientIndex: client, epoch: epoch, number: number))
            }) else { continue }
            found.append("ping \(late) of \(participants[index].info.participantId) had no pong within the pong timeout, yet the service keeps connection \(epoch) open")
        }
        return found
    }

    /// Pings of participant `index`'s connection answered before the current event, by the
    /// pongs counted here.
    private func answered(_ participants: [ServerParticipant], _ index: Int) -> Int {
        entry(participants, index)?.count ?? 0
    }
}

/// The pongs `KeepaliveVerdictMonitor` has counted on one connection of a client (SIG-6): the
/// participant it held and the connection's number, as a client may join again as another
/// participant, and each client numbers its own connections.
private struct PongsHeard: Sendable {
    var participantId: String
    var epoch: Int
    var count: Int
}

/// STG-3: a join that gets no answer for the whole retry window ends in `disconnected` with
/// FAILED once the window is spent. The window starts with the `join()` host call (a `join()`
/// while connecting starts a fresh one); an answer (accepted or refused), `leave()`, or any
/// `disconnected` ends it. Inside the window each attempt is given its `attemptTimeout` (ext),
/// cut to the window's end: no attempt times out sooner after it began, the first at the
/// `join()` call and each next one when the one before timed out. So an overlapping `join()`
/// gives its own first attempt the whole timeout, whatever was left of the cancelled one's.
public struct JoinRetryWindowMonitor: InvariantMonitor {
    public var name: String { "unanswered-join-fails-after-window" }
    public var summary: String { "a join with no answer for the whole retry window ends disconnected with FAILED when the window is spent; no attempt inside it times out before its attemptTimeout" }
    public var rules: [String] { ["STG-3"] }
    /// Per client name: when its join window ends, while no answer has arrived.
    private var deadlines: [String: VirtualTime] = [:]
    /// Per client name, while its window is open: the earliest its current attempt may time out.
    private var attemptEnds: [String: VirtualTime] = [:]
    private var reported: Set<String> = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        let observer = event.observer
        switch event.kind {
        case .hostCall(.join):
            if let client = world.clientIndex(named: observer), world.clients[client].view.local.connectionState == .connecting {
                let deadline = event.time + world.clients[client].config.joinRetry.window
                deadlines[observer] = deadline
                attemptEnds[observer] = min(event.time + world.clients[client].config.joinRetry.attemptTimeout, deadline)
                reported.remove(observer)
            }
        case .hostCall(.leave), .delivered(.joinAccepted, _), .delivered(.joinRejected, _),
             .renderer(.connectionStateChanged(.disconnected, _)), .renderer(.connectionStateChanged(.connected, _)):
            deadlines[observer] = nil
            attemptEnds[observer] = nil
        case .timerFired(.joinAttemptTimeout):
            return attemptTimedOut(event, index: index, world: world)
        default:
            break
        }
        return expired(at: event.time, index: index, world: world)
    }

    public func finish(world: World) -> [Violation] {
        var monitor = self
        return monitor.expired(at: world.now, index: nil, world: world)
    }

    public static var keyReads: WorldReads { [] }

    /// The clients whose join window is open and those already reported (STG-3). The window's
    /// end is left out: it is a duration from the `join()` call, compared with the clock,
    /// which the checker's key abstracts for the world too; the checker hides the retry window
    /// (README, "Time is abstracted"), and the timed runs check it.
    /// The earliest end of each open window's current attempt is left out for the same reason
    /// (in a run without a violation it is when the world's pending attempt timeout is due).
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.writeUnordered(deadlines.keys) { $0.writeName($1) }
        writer.writeUnordered(reported) { $0.writeName($1) }
    }

    /// A join attempt timed out: not before its `attemptTimeout` (or the window's end) since it
    /// began. A timeout inside the window begins the next attempt. Only an early timeout is
    /// judged: the model checker may fire a timer after its time.
    private mutating func attemptTimedOut(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        let observer = event.observer
        guard let earliest = attemptEnds[observer], let deadline = deadlines[observer],
              let client = world.clientIndex(named: observer) else { return [] }
        let timeout = world.clients[client].config.joinRetry.attemptTimeout
        attemptEnds[observer] = event.time < deadline ? min(event.time + timeout, deadline) : nil
        guard event.time < earliest else { return [] }
        return [violation(event, index: index, "a join attempt timed out at \(event.time), before \(earliest): each attempt has attemptTimeout \(timeout) (cut to the window's end at \(deadline))")]
    }

    /// A client whose attempt timeout, due within its window, has not fired yet is not late:
    /// the model checker fires events out of time order, and the simulator fires equal times
    /// one after the other. (Nor is one whose timeout is firing now: its verdict is the next
    /// event.)
    private mutating func expired(at time: VirtualTime, index: Int?, world: World) -> [Violation] {
        guard !deadlines.isEmpty else { return [] }
        return deadlines.filter { time > $0.value }.keys.sorted().compactMap { client in
            guard let deadline = deadlines[client], !Self.timeoutPending(client, within: deadline, world: world),
                  reported.insert(client).inserted else { return nil }
            return Violation(
                invariant: name, rules: rules, time: time, observer: client, eventIndex: index,
                message: "the join had no answer for its whole retry window (until \(deadline)), but it has not ended FAILED"
            )
        }
    }

    private static func timeoutPending(_ client: String, within deadline: VirtualTime, world: World) -> Bool {
        guard let index = world.clientIndex(named: client) else { return false }
        return world.pending.timers(ofClient: index).contains { pending in
            guard pending.due <= deadline, case .joinAttemptTimeout = pending.timer else { return false }
            return true
        }
    }
}

extension KeepaliveVerdictMonitor {
    /// `isPong(frame)`, read once for a run of the same frame.
    private mutating func readsAsPong(_ frame: String) -> Bool {
        if let last = lastFrameRead, last.frame == frame { return last.isPong }
        let read = Self.isPong(frame)
        lastFrameRead = (frame, read)
        return read
    }

    /// Whether `frame`, arriving at the service, is a Sora `pong` (SIG-1, SIG-6).
    static func isPong(_ frame: String) -> Bool {
        if case .success(.pong) = SignalingMessage.decode(frame: frame, arrivingAt: .server) { true } else { false }
    }
}
