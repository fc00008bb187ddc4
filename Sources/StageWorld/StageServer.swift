import Simulation
import StageCore

/// A participant connected to the stage service.
public struct ServerParticipant: Hashable, Sendable {
    public var info: ParticipantInfo
    public var clientIndex: Int
    public var publishedStreams: [StageStream]
    /// The verified token the participant holds now (TOK-4 compares exchanges against it).
    public var claims: TokenClaims
    public var origin: TokenOrigin
    /// What subscribers learn of its video when it publishes (SUB-6..8).
    public var properties = PublisherProperties()
    /// The client's connection this participant is reachable on (NET-3).
    public var epoch: Int
    /// Keepalive on this connection: pings sent and pongs heard; pongs answer pings in order (SIG-6).
    public var pingsSent = 0
    public var pongsHeard = 0
    /// Its connection was dropped for unanswered pings and it is kept for the reconnect grace
    /// period, its stream interrupted (SUB-4); it holds no connection meanwhile.
    public var isInterrupted = false
}

/// One client connection as the stage service holds it: the client and its connection number.
public struct ServiceConnection: Hashable, Sendable {
    public var clientIndex: Int
    public var epoch: Int

    public init(clientIndex: Int, epoch: Int) {
        self.clientIndex = clientIndex
        self.epoch = epoch
    }
}

/// The stage service: token verification on join and exchange, the participant registry,
/// publish capacity, and fan-out of join/publish/update/leave notifications to every other
/// connected client (STG, TOK-1, TOK-3, TOK-10).
public struct StageServer: Hashable, Sendable {
    /// The stage, its keys, capacity and keepalive: the run's configuration, never changed.
    public let config: WorldConfig
    /// Connected participants, sorted by participant id.
    public internal(set) var participants: [ServerParticipant] = []
    /// SUB-7: how many streams each participant id has published on this stage, kept when it
    /// leaves, so a stream's number (`PublisherProperties.streamNumber`) is never reused.
    public internal(set) var streamsCreated: [String: Int] = [:]

    public init(config: WorldConfig) {
        self.config = config
    }

    /// A reply or notification the service sends, on the client's connection `epoch`.
    public struct Outgoing: Hashable, Sendable {
        public var clientIndex: Int
        public var message: WireMessage
        public var epoch: Int
    }

    /// What handling one input produced: messages to send, what changed in the registry, and
    /// keepalive timers to set.
    public struct Reply: Hashable, Sendable {
        public var outgoing: [Outgoing] = []
        public var events: [ServiceEvent] = []
        public var timers: [ServerTimer] = []

        mutating func merge(_ other: Reply) {
            outgoing += other.outgoing
            events += other.events
            timers += other.timers
        }
    }

    /// The sender's own connection epoch, for replies to it.
    func epoch(ofClient clientIndex: Int) -> Int {
        index(ofClient: clientIndex).map { participants[$0].epoch } ?? 0
    }

    func reply(_ message: WireMessage, to clientIndex: Int) -> Outgoing {
        Outgoing(clientIndex: clientIndex, message: message, epoch: epoch(ofClient: clientIndex))
    }

    /// The client connections the service holds open now, in participant order (SIG-6, NET-3).
    public var connections: [ServiceConnection] { Self.openConnections(of: registrationsInPlace) }

    /// The open connections among `registrations`, in their order.
    static func openConnections(of registrations: some Sequence<Registration>) -> [ServiceConnection] {
        Array(registrations.lazy.filter { !$0.isInterrupted }.map(\.connection))
    }

    /// One participant's connection as the service has registered it: what its open
    /// connections and its timers (`ServerTimer.isLive(on:)`) are made from.
    struct Registration: Equatable {
        var connection: ServiceConnection
        var isInterrupted: Bool
    }

    /// Every participant's registration, in participant order.
    var registrations: [Registration] { Array(registrationsInPlace) }

    /// Whether `registrations` are exactly the service's now, in order: the same as comparing
    /// with `registrations`, without building that list (the world asks this after every
    /// service step).
    func holdsExactly(_ registrations: [Registration]) -> Bool { registrationsInPlace.elementsEqual(registrations) }

    /// The registrations, made one by one from the participants read in place (`map` would
    /// copy every participant first).
    private var registrationsInPlace: some Sequence<Registration> {
        participants.indices.lazy.map {
            Registration(
                connection: ServiceConnection(clientIndex: participants[$0].clientIndex, epoch: participants[$0].epoch),
                isInterrupted: participants[$0].isInterrupted
            )
        }
    }

    /// Whether the service holds this client's connection `epoch` open (no copy: monitors ask
    /// it for every client on every step).
    public func holdsConnection(clientIndex: Int, epoch: Int) -> Bool {
        participants.contains { $0.clientIndex == clientIndex && $0.epoch == epoch && !$0.isInterrupted }
    }

    /// Whether the service holds open the connection of participant entry `index`: as
    /// `holdsConnection(clientIndex:epoch:)` for that entry's client and epoch, without a
    /// search when the entry itself is not interrupted (monitors ask it per participant).
    public func holdsConnection(ofParticipantAt index: Int) -> Bool {
        !participants[index].isInterrupted
            || holdsConnection(clientIndex: participants[index].clientIndex, epoch: participants[index].epoch)
    }

    public var publisherCount: Int { participants.filter { !$0.publishedStreams.isEmpty }.count }

    public func participant(_ id: String) -> ServerParticipant? {
        participants.first(where: { $0.info.participantId == id })
    }

    func index(ofClient clientIndex: Int) -> Int? {
        participants.firstIndex(where: { $0.clientIndex == clientIndex })
    }

    /// The connection client `clientIndex`'s timers depend on: that of the participant
    /// `index(ofClient:)` finds.
    func timerConnection(ofClient clientIndex: Int) -> TimerConnection? {
        index(ofClient: clientIndex).map { TimerConnection(epoch: participants[$0].epoch, isInterrupted: participants[$0].isInterrupted) }
    }

    /// Per client index below `clientCount`, `timerConnection(ofClient:)`, in one pass.
    func timerConnections(clientCount: Int) -> [TimerConnection?] {
        var connections = [TimerConnection?](repeating: nil, count: clientCount)
        for position in participants.indices.reversed() where connections.indices.contains(participants[position].clientIndex) {
            connections[participants[position].clientIndex] = TimerConnection(epoch: participants[position].epoch, isInterrupted: participants[position].isInterrupted)
        }
        return connections
    }

    /// Handles one message from a client; returns what the service sends in response.
    public mutating func handle(_ message: WireMessage, from clientIndex: Int, epoch: Int, now: VirtualTime) -> Reply {
        switch message {
        case .join(let token, let metadata): return join(token, metadata: metadata, clientIndex: clientIndex, epoch: epoch, now: now)
        case .pong: return pong(clientIndex: clientIndex)
        case .exchangeToken(let token): return exchange(token, clientIndex: clientIndex, now: now)
        case .publish(let streams, let properties): return publish(streams, properties, clientIndex: clientIndex, now: now)
        case .unpublish: return unpublish(clientIndex: clientIndex)
        case .mute(let kind, let muted): return mute(kind, muted, clientIndex: clientIndex)
        case .subscribe(let publisherId, _): return subscribe(to: publisherId, clientIndex: clientIndex)
        case .leave: return leave(clientIndex: clientIndex)
        default: return Reply()
        }
    }

    /// TOK-1: a join is admitted only with a token that verifies for this stage, now. A join
    /// from a client already admitted (a retried join, STG-3, or a reconnect, NET-3) moves the
    /// participant to the new connection; a token whose `jti` is connected from another client
    /// ejects that connection (TOK-10).
    private mutating func join(_ token: String, metadata: ConnectMetadata, clientIndex: Int, epoch: Int, now: VirtualTime) -> Reply {
        if let index = index(ofClient: clientIndex) { return rejoin(at: index, token: token, epoch: epoch, now: now) }
        let verified: VerifiedToken
        switch verify(token, now: now) {
        case .failure(let rejection):
            let refusal = WireMessage.joinRejected(rejection.stageError, reason: rejection.reason)
            return Reply(
                outgoing: [Outgoing(clientIndex: clientIndex, message: refusal, epoch: epoch)],
                events: [.refused(operation: "join", error: rejection.stageError, reason: rejection.reason)]
            )
        case .success(let token):
            verified = token
        }
        var reply = ejectEarlierConnection(of: verified.claims.participantId)
        let info = verified.claims.participantInfo(isLocal: false)
        reply.outgoing.append(Outgoing(clientIndex: clientIndex, message: .joinAccepted(snapshots(except: clientIndex), connectionId: info.participantId), epoch: epoch))
        let notifyMetadata = Mutants.isOn(.leakConnectMetadata) ? metadata.metadata : metadata.notifyMetadata
        reply.outgoing += broadcast(.participantJoined(info, notifyMetadata: notifyMetadata), except: clientIndex)
        reply.events.append(.admitted(info))
        if config.keepalive.isEnabled { reply.timers.append(.ping(clientIndex: clientIndex, epoch: epoch)) }
        insert(ServerParticipant(
            info: info, clientIndex: clientIndex, publishedStreams: [], claims: verified.claims, origin: verified.origin, epoch: epoch
        ))
        return reply
    }

    /// `TokenKeyRing.verify` of the service's key ring, with the token's own checks (its
    /// signature, its claims) read once per process (`TokenReading`).
    func verify(_ token: String, now: VirtualTime) -> Result<VerifiedToken, TokenRejection> {
        TokenReading.of(token, keyRing: config.keyRing).signature.flatMap {
            TokenKeyRing.check($0, nowSeconds: now.nanoseconds / 1_000_000_000, topic: config.stageId, resource: config.resource)
        }
    }

    /// TOK-10 (ext): one token, one connection; the earlier holder is dropped and everyone
    /// else hears it leave.
    private mutating func ejectEarlierConnection(of participantId: String) -> Reply {
        guard let index = participants.firstIndex(where: { $0.info.participantId == participantId }) else { return Reply() }
        let earlier = participants.remove(at: index)
        let reason = "token-reused"
        var reply = Reply(events: [.ejected(participantId: participantId, reason: reason)])
        reply.outgoing.append(Outgoing(clientIndex: earlier.clientIndex, message: .ejected(reason: reason), epoch: earlier.epoch))
        reply.outgoing += broadcast(.participantLeft(participantId: participantId), except: earlier.clientIndex)
        return reply
    }

    private mutating func publish(_ streams: [StageStream], _ properties: PublisherProperties, clientIndex: Int, now: VirtualTime) -> Reply {
        guard let index = index(ofClient: clientIndex) else { return Reply() }
        let alreadyPublishing = !participants[index].publishedStreams.isEmpty
        if !participants[index].info.capabilities.canPublish {
            let error = StageError(code: .tokenNotAllowed, category: .publish, isFatal: false)
            return Reply(outgoing: [reply(.publishRejected(error), to: clientIndex)])
        }
        if !alreadyPublishing && publisherCount >= config.publisherCapacity {
            let error = StageError(code: .stageAtCapacity, category: .publish, isFatal: false)
            return Reply(outgoing: [reply(.publishRejected(error), to: clientIndex)])
        }
        let id = participants[index].info.participantId
        participants[index].publishedStreams = streams.map { StageStream(participantId: id, kind: $0.kind, isMuted: $0.isMuted) }
        if alreadyPublishing {
            let kept = participants[index].properties
            participants[index].properties = properties.created(at: kept.creationTimeNanoseconds, streamNumber: kept.streamNumber)
        } else {
            let number = streamsCreated[id, default: 0] + 1
            streamsCreated[id] = number
            participants[index].properties = properties.created(at: now.nanoseconds, streamNumber: number)
        }
        let snapshot = PublisherSnapshot(info: participants[index].info, streams: participants[index].publishedStreams, properties: participants[index].properties)
        return Reply(
            outgoing: [reply(.publishAccepted, to: clientIndex)] + broadcast(.participantPublished(snapshot), except: clientIndex),
            events: alreadyPublishing ? [] : [.publishing(participants[index].info)]
        )
    }

    private mutating func unpublish(clientIndex: Int) -> Reply {
        guard let index = index(ofClient: clientIndex), !participants[index].publishedStreams.isEmpty else { return Reply() }
        participants[index].publishedStreams = []
        return Reply(outgoing: broadcast(.participantUnpublished(participantId: participants[index].info.participantId), except: clientIndex))
    }

    /// A publisher muted or unmuted a stream: everyone else hears the new stream states (RND-6).
    private mutating func mute(_ kind: MediaKind, _ muted: Bool, clientIndex: Int) -> Reply {
        guard let index = index(ofClient: clientIndex),
              let stream = participants[index].publishedStreams.firstIndex(where: { $0.kind == kind }) else { return Reply() }
        participants[index].publishedStreams[stream].isMuted = muted
        let snapshot = PublisherSnapshot(info: participants[index].info, streams: participants[index].publishedStreams, properties: participants[index].properties)
        return Reply(outgoing: broadcast(.participantPublished(snapshot), except: clientIndex))
    }

    /// A subscription is granted only to a participant whose token allows subscribing (TOK-8).
    private func subscribe(to publisherId: String, clientIndex: Int) -> Reply {
        guard let index = index(ofClient: clientIndex), participants[index].info.capabilities.canSubscribe,
              let publisher = participant(publisherId), !publisher.publishedStreams.isEmpty else { return Reply() }
        return Reply(outgoing: [reply(.subscribeAccepted(publisherId: publisherId), to: clientIndex)])
    }

    /// The participant leaves the registry (its own leave, or the service dropping it): the
    /// others hear it, and the trace records whether it was publishing then.
    mutating func leave(clientIndex: Int) -> Reply {
        guard let index = index(ofClient: clientIndex) else { return Reply() }
        let leaving = participants.remove(at: index)
        return Reply(
            outgoing: broadcast(.participantLeft(participantId: leaving.info.participantId), except: clientIndex),
            events: [.left(participantId: leaving.info.participantId, wasPublishing: !leaving.publishedStreams.isEmpty)]
        )
    }

    /// Every other connected participant as a joining client first sees it.
    func snapshots(except clientIndex: Int) -> [PublisherSnapshot] {
        participants.filter { $0.clientIndex != clientIndex }.map { PublisherSnapshot(info: $0.info, streams: $0.publishedStreams, properties: $0.properties) }
    }

    func broadcast(_ message: WireMessage, except clientIndex: Int) -> [Outgoing] {
        participants.filter { $0.clientIndex != clientIndex && !$0.isInterrupted }.map { Outgoing(clientIndex: $0.clientIndex, message: message, epoch: $0.epoch) }
    }

    private mutating func insert(_ participant: ServerParticipant) {
        let position = participants.firstIndex(where: { $0.info.participantId > participant.info.participantId })
        participants.insert(participant, at: position ?? participants.endIndex)
    }
}
