import Signaling
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
    /// The publisher's video properties, for subscribers (SUB-6..8).
    public var properties: PublisherProperties

    public init(info: ParticipantInfo, streams: [StageStream], properties: PublisherProperties = PublisherProperties()) {
        self.info = info
        self.streams = streams
        self.properties = properties
    }
}

/// The signaling vocabulary between a client SDK and the stage service (STG, STR-2, RND-2).
public enum WireMessage: Hashable, Sendable {
    // client -> server
    /// The participant token, as the app passed it (TOK-1), and the app's signaling metadata (SIG-2).
    case join(token: String, metadata: ConnectMetadata = ConnectMetadata())
    /// exchangeToken(new) on a connected stage (TOK-4, TOK-5).
    case exchangeToken(String)
    case publish([StageStream], PublisherProperties)
    case unpublish
    case mute(MediaKind, Bool)
    case subscribe(publisherId: String, SubscribeType)
    case unsubscribe(publisherId: String)
    case leave
    /// The client's SDP answer to the service's offer (SIG-1): the first thing it sends on a
    /// connection the service accepted; the service needs nothing from it.
    case answer
    /// The client's answer to a re-offer (SIG-1): it follows every `subscribeAccepted`, before
    /// anything else the client sends; the service needs nothing from it.
    case reAnswer
    /// Answer to the service's keepalive ping; pongs answer pings in order (SIG-6).
    case pong
    // server -> client
    /// Keepalive ping (SIG-6).
    case ping
    /// The service admitted the join (the `offer`): every other participant, and the
    /// connection id it gives the joining participant, its participant id (SIG-1, SIG-5).
    case joinAccepted([PublisherSnapshot], connectionId: String)
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
    /// Another participant connected, with the notify metadata it sent (SIG-2, SIG-5).
    case participantJoined(ParticipantInfo, notifyMetadata: JSONValue? = nil)
    case participantPublished(PublisherSnapshot)
    case participantUnpublished(participantId: String)
    case participantLeft(participantId: String)
    /// The service adds the publisher's media to the connection: a `re-offer` (SIG-1).
    case subscribeAccepted(publisherId: String)
    /// A `push` or `notify` that carries no stage message: the application's data (SIG-2,
    /// SIG-5), for the SDK's signaling handlers (SIG-7); it changes nothing in the stage.
    case applicationData(SignalingMessage)
    /// Another participant's connection dropped; the service keeps it for the reconnect grace
    /// period and its stream is interrupted (SUB-4).
    case participantInterrupted(participantId: String)
    /// Another participant joined again on a new connection the service kept it for (NET-3):
    /// an interrupted stream is back (SUB-4), and its info is what it holds now (TOK-9).
    case participantReconnected(ParticipantInfo)

    /// A complete one-line rendering: the trace's `message` field.
    public var summary: String {
        switch self {
        case .join(let token, _): "join(\(TraceText.token(token)))"
        case .exchangeToken(let token): "exchangeToken(\(TraceText.token(token)))"
        case .publish(let streams, _): "publish\(TraceText.streams(streams))"
        case .unpublish: "unpublish"
        case .mute(let kind, let muted): "mute(\(kind.rawValue), \(muted))"
        case .subscribe(let id, let type): "subscribe(\(id), \(type.rawValue))"
        case .unsubscribe(let id): "unsubscribe(\(id))"
        case .leave: "leave"
        case .answer: "answer"
        case .reAnswer: "reAnswer"
        case .pong: "pong"
        case .ping: "ping"
        case .joinAccepted(let snapshots, _): "joinAccepted[\(snapshots.map(TraceText.snapshot).joined(separator: ", "))]"
        case .joinRejected(let error, let reason): "joinRejected(\(error): \(reason))"
        case .exchangeAccepted(let info): "exchangeAccepted(\(TraceText.info(info)))"
        case .exchangeRejected(let error, let reason): "exchangeRejected(\(error): \(reason))"
        case .participantUpdated(let info): "participantUpdated(\(TraceText.info(info)))"
        case .ejected(let reason): "ejected(\(reason))"
        case .publishAccepted: "publishAccepted"
        case .publishRejected(let error): "publishRejected(\(error))"
        case .participantJoined(let info, _): "participantJoined(\(TraceText.info(info)))"
        case .participantPublished(let snapshot): "participantPublished(\(TraceText.snapshot(snapshot)))"
        case .participantUnpublished(let id): "participantUnpublished(\(id))"
        case .participantLeft(let id): "participantLeft(\(id))"
        case .subscribeAccepted(let id): "subscribeAccepted(\(id))"
        case .applicationData(let signaling): "applicationData(\(signaling.type.rawValue))"
        case .participantInterrupted(let id): "participantInterrupted(\(id))"
        case .participantReconnected(let info): "participantReconnected(\(TraceText.info(info)))"
        }
    }
}

/// What a client sends with `connect` besides its token (SIG-2, send only): `metadata` for the
/// service, and `notifyMetadata` that the service passes on to everyone in `notify`. Both are
/// arbitrary JSON.
public struct ConnectMetadata: Hashable, Sendable {
    public var metadata: JSONValue?
    public var notifyMetadata: JSONValue?

    public init(metadata: JSONValue? = nil, notifyMetadata: JSONValue? = nil) {
        self.metadata = metadata
        self.notifyMetadata = notifyMetadata
    }
}

/// A signaling frame on its way through the simulated network: the network carries JSON text
/// only, and the receiver decodes it (SIG-1, SIG-8).
public struct Envelope: Hashable, Sendable {
    public var from: Endpoint
    public var to: Endpoint
    /// The frame's text and what it decodes to at the receiver, made once with the frame.
    public var content: FrameContent
    /// The connection it belongs to: the client's connection number when it was sent. A
    /// message of an older connection is discarded on arrival (NET-3).
    public var epoch: Int
    /// The epoch of a frame injected for whatever connection the client has when it arrives.
    public static let currentConnection = -1
    /// Its place in its connection's direction, for the receiving transport's duplicate
    /// detection and reassembly; 0 for a frame outside any sequence (an injected one).
    public var sequence: UInt64 = 0
    /// How many transmissions of it have been lost so far (retransmission backoff).
    public var lostTransmissions: Int = 0

    /// A frame carrying `message` on the stage `channelId`.
    public init(from: Endpoint, to: Endpoint, message: WireMessage, epoch: Int, channelId: String) {
        self.init(from: from, to: to, content: FrameTable.frame(carrying: message, channelId: channelId, atServer: to == .server), epoch: epoch)
    }

    /// A frame as given, e.g. a malformed one a scenario injects (SIG-8).
    public init(from: Endpoint, to: Endpoint, frame: String, epoch: Int) {
        self.init(from: from, to: to, content: FrameContent(text: frame, atServer: to == .server), epoch: epoch)
    }

    private init(from: Endpoint, to: Endpoint, content: FrameContent, epoch: Int) {
        self.from = from
        self.to = to
        self.content = content
        self.epoch = epoch
    }

    /// The Sora signaling JSON text frame.
    public var frame: String { content.text }

    /// The stage message the frame carries, or why it carries none (SIG-8).
    public func decoded() -> Result<WireMessage, SignalingFrameError> { content.decoded }

    /// The client end of the link this envelope travels (every link joins a client and the server).
    public var clientIndex: Int {
        if case .client(let index) = to { return index }
        if case .client(let index) = from { return index }
        return -1
    }

    public var isUplink: Bool { to == .server }
}

/// Why a received frame was refused: a protocol error, logged, that changes nothing (SIG-8).
public struct SignalingFrameError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
}
