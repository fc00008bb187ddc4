import StageCore

/// Where a message starts or ends: the stage service or one client (by index in the world).
public enum Endpoint: Hashable, Sendable {
    case server
    case client(Int)
}

/// A published participant as the stage service describes it to other clients.
public struct PublisherSnapshot: Hashable, Sendable {
    public var info: ParticipantInfo
    /// Empty when the participant is connected but not publishing.
    public var streams: [StageStream]
}

/// The signaling vocabulary between a client SDK and the stage service (STG, STR-2, RND-2).
public enum WireMessage: Hashable, Sendable {
    // client -> server
    /// The participant token, as the app passed it (TOK-1).
    case join(token: String)
    /// exchangeToken(new) on a connected stage (TOK-4, TOK-5).
    case exchangeToken(String)
    case publish([StageStream])
    case unpublish
    case mute(MediaKind, Bool)
    case subscribe(publisherId: String, SubscribeType)
    case unsubscribe(publisherId: String)
    case leave
    /// Answer to the service's keepalive ping `number` (SIG-6).
    case pong(Int)
    // server -> client
    /// Keepalive ping `number` (SIG-6).
    case ping(Int)
    case joinAccepted([PublisherSnapshot])
    case joinRejected(StageError, reason: String)
    /// The exchanged token verified; the participant's info is now this (TOK-5).
    case exchangeAccepted(ParticipantInfo)
    case exchangeRejected(StageError, reason: String)
    /// Another participant exchanged its token: its new userId/attributes (VIS).
    case participantUpdated(ParticipantInfo)
    /// The service dropped this connection, e.g. its token joined again elsewhere (TOK-10).
    case ejected(reason: String)
    case publishAccepted
    case publishRejected(StageError)
    case participantJoined(ParticipantInfo)
    case participantPublished(PublisherSnapshot)
    case participantUnpublished(participantId: String)
    case participantLeft(participantId: String)
    case subscribeAccepted(publisherId: String)

    /// A complete one-line rendering: the trace's `message` field.
    public var summary: String {
        switch self {
        case .join(let token): "join(\(TraceText.token(token)))"
        case .exchangeToken(let token): "exchangeToken(\(TraceText.token(token)))"
        case .publish(let streams): "publish\(TraceText.streams(streams))"
        case .unpublish: "unpublish"
        case .mute(let kind, let muted): "mute(\(kind.rawValue), \(muted))"
        case .subscribe(let id, let type): "subscribe(\(id), \(type.rawValue))"
        case .unsubscribe(let id): "unsubscribe(\(id))"
        case .leave: "leave"
        case .pong(let number): "pong(\(number))"
        case .ping(let number): "ping(\(number))"
        case .joinAccepted(let snapshots): "joinAccepted[\(snapshots.map(TraceText.snapshot).joined(separator: ", "))]"
        case .joinRejected(let error, let reason): "joinRejected(\(error): \(reason))"
        case .exchangeAccepted(let info): "exchangeAccepted(\(TraceText.info(info)))"
        case .exchangeRejected(let error, let reason): "exchangeRejected(\(error): \(reason))"
        case .participantUpdated(let info): "participantUpdated(\(TraceText.info(info)))"
        case .ejected(let reason): "ejected(\(reason))"
        case .publishAccepted: "publishAccepted"
        case .publishRejected(let error): "publishRejected(\(error))"
        case .participantJoined(let info): "participantJoined(\(TraceText.info(info)))"
        case .participantPublished(let snapshot): "participantPublished(\(TraceText.snapshot(snapshot)))"
        case .participantUnpublished(let id): "participantUnpublished(\(id))"
        case .participantLeft(let id): "participantLeft(\(id))"
        case .subscribeAccepted(let id): "subscribeAccepted(\(id))"
        }
    }
}

/// A message on its way through the simulated network.
public struct Envelope: Hashable, Sendable {
    public var from: Endpoint
    public var to: Endpoint
    public var message: WireMessage
    /// The connection it belongs to: the client's connection number when it was sent. A
    /// message of an older connection is discarded on arrival (NET-3).
    public var epoch: Int
    /// How many transmissions of it have been lost so far (retransmission backoff).
    public var lostTransmissions: Int = 0

    public init(from: Endpoint, to: Endpoint, message: WireMessage, epoch: Int) {
        self.from = from
        self.to = to
        self.message = message
        self.epoch = epoch
    }

    /// The client end of the link this envelope travels (every link joins a client and the server).
    public var clientIndex: Int {
        if case .client(let index) = to { return index }
        if case .client(let index) = from { return index }
        return -1
    }

    public var isUplink: Bool { to == .server }
}
