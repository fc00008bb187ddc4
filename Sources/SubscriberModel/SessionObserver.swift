/// One client's view of the streams in an OpenTok session (SUB-1, SUB-3): it is told when
/// streams appear and leave, sends `streamCreated` / `streamDestroyed`, and tells its own
/// streams from others' by comparing connection ids (`isOwn`).
///
/// The seed's own example handles the client's own stream inside `session:streamCreated:`
/// ("This is my own stream") and checks ownership again in `streamDestroyed`, so by default
/// own streams are delivered too (`deliversOwnStreams = true`); set it to false for the
/// "others' streams only" behaviour.
public struct SessionObserver: Sendable, Hashable {
    /// The session this client is connected to; streams of other sessions are ignored.
    public let sessionId: String
    /// `session.connection.connectionId` of this client.
    public let ownConnectionId: String
    /// Whether the client's own streams are announced with `streamCreated` / `streamDestroyed`.
    public var deliversOwnStreams: Bool

    /// Streams present in the session, in the order they appeared.
    public private(set) var streams: [OpenTokStream] = []
    /// Ids of streams that have left; a stream id is never reused.
    public private(set) var retiredStreamIds: Set<String> = []
    /// Why the most recent input was ignored, or nil if it was accepted.
    public private(set) var lastIgnored: String?

    public init(sessionId: String = "session", ownConnectionId: String, deliversOwnStreams: Bool = true) {
        self.sessionId = sessionId
        self.ownConnectionId = ownConnectionId
        self.deliversOwnStreams = deliversOwnStreams
    }

    /// SUB-1: the stream was published by this client (same connection id).
    public func isOwn(_ stream: OpenTokStream) -> Bool {
        !ownConnectionId.isEmpty && stream.connectionId == ownConnectionId
    }

    /// The present stream with this id, if any.
    public func stream(withId streamId: String) -> OpenTokStream? {
        streams.first { $0.streamId == streamId }
    }

    /// Streams published by other clients (the ones to subscribe to).
    public var othersStreams: [OpenTokStream] { streams.filter { !isOwn($0) } }

    /// SUB-1: a client published `stream` into the session.
    @discardableResult
    public mutating func streamAppeared(_ stream: OpenTokStream) -> [SubscriberEvent] {
        lastIgnored = nil
        guard stream.sessionId == sessionId else {
            lastIgnored = "stream \(stream.streamId) ignored: it belongs to session \(stream.sessionId), not \(sessionId)"
            return []
        }
        guard self.stream(withId: stream.streamId) == nil, !retiredStreamIds.contains(stream.streamId) else {
            lastIgnored = "stream \(stream.streamId) ignored: that stream id was already seen"
            return []
        }
        streams.append(stream)
        return isOwn(stream) && !deliversOwnStreams ? [] : [.streamCreated(stream)]
    }

    /// The client's own connection to the session ended (it left, gave up or was refused). A
    /// later connection is a new session connection: it is told of every stream again, under
    /// the ids the streams have had all along (SUB-7 `streamId`), so no id stays retired.
    public mutating func connectionEnded() {
        streams = []
        retiredStreamIds = []
    }

    /// SUB-3: the stream left the session.
    @discardableResult
    public mutating func streamLeft(streamId: String, reason: StreamDestroyedReason) -> [SubscriberEvent] {
        lastIgnored = nil
        guard let index = streams.firstIndex(where: { $0.streamId == streamId }) else {
            lastIgnored = "streamLeft ignored: no stream \(streamId) in the session"
            return []
        }
        let stream = streams.remove(at: index)
        retiredStreamIds.insert(streamId)
        return isOwn(stream) && !deliversOwnStreams ? [] : [.streamDestroyed(stream, reason: reason)]
    }
}
