/// What one SDK instance knows about a remote participant: its info, what it publishes, the
/// strategy's last answer for it, and the subscription the SDK has asked for and reached.
public struct RemoteParticipant: Hashable, Sendable {
    public var info: ParticipantInfo
    /// The streams the remote publishes now; empty while it does not publish.
    public var publishedStreams: [StageStream]
    /// The strategy's last answer for this participant (STR-1).
    public var answer: SubscribeType
    /// The subscription the SDK has requested from the server.
    public var requested: SubscribeType
    public var subscribeState: SubscribeState
    /// The streams renderers were given by didAddStreams and not yet removed (RND-5).
    public var addedStreams: [StageStream]
    /// Whether renderers were told participantDidJoin for the current publish (RND-2).
    public var announced: Bool

    public init(info: ParticipantInfo, answer: SubscribeType) {
        self.info = info
        self.publishedStreams = []
        self.answer = answer
        self.requested = .none
        self.subscribeState = .notSubscribed
        self.addedStreams = []
        self.announced = false
    }

    public var isPublishing: Bool { !publishedStreams.isEmpty }

    /// The subscription the SDK should hold now: the answer once the remote publishes (STR-2),
    /// nothing before, nothing when the local token cannot subscribe (TOK-8).
    public func target(canSubscribe: Bool) -> SubscribeType {
        (isPublishing || Mutants.isOn(.subscribeBeforePublish)) && canSubscribe ? answer : .none
    }
}

/// What one SDK instance knows about itself: connection, publish state and local streams.
public struct LocalParticipant: Hashable, Sendable {
    public var info: ParticipantInfo
    public var connectionState: ConnectionState
    public var publishState: PublishState
    /// The strategy's last shouldPublish answer (STR-3), false until asked.
    public var wantsToPublish: Bool
    /// The streams the strategy returned last (STR-4), with their current mute state.
    public var streams: [LocalStream]
    /// The streams as the stage service last heard of them (kinds and mute states).
    public var publishedStreams: [LocalStream]

    public init(info: ParticipantInfo) {
        self.info = info
        self.connectionState = .disconnected
        self.publishState = .notPublished
        self.wantsToPublish = false
        self.streams = []
        self.publishedStreams = []
    }

    /// Whether the SDK should be publishing (or trying to) now.
    public var publishTarget: Bool {
        connectionState == .connected && info.capabilities.canPublish && wantsToPublish && !streams.isEmpty
    }

    public var isPublishingOrAttempting: Bool {
        publishState == .published || publishState == .attemptingPublish
    }
}

/// One SDK instance's whole view of its stage: the reconciler's input and output.
///
/// Remote participants are kept sorted by participant id, so iteration order never depends on
/// hashing (NET-1) and lookups are binary searches.
public struct StageView: Hashable, Sendable {
    public var local: LocalParticipant
    public private(set) var remotes: [RemoteParticipant]

    public init(local: ParticipantInfo) {
        self.local = LocalParticipant(info: local)
        self.remotes = []
    }

    public func index(of participantId: String) -> Int? {
        let position = insertionIndex(of: participantId)
        return position < remotes.count && remotes[position].info.participantId == participantId ? position : nil
    }

    public subscript(participantId: String) -> RemoteParticipant? {
        index(of: participantId).map { remotes[$0] }
    }

    public subscript(index index: Int) -> RemoteParticipant {
        get { remotes[index] }
        set { remotes[index] = newValue }
    }

    /// Inserts a remote participant, or replaces the one with the same id; returns its index.
    @discardableResult
    public mutating func upsert(_ remote: RemoteParticipant) -> Int {
        let position = insertionIndex(of: remote.info.participantId)
        if position < remotes.count && remotes[position].info.participantId == remote.info.participantId {
            remotes[position] = remote
        } else {
            remotes.insert(remote, at: position)
        }
        return position
    }

    public mutating func remove(_ participantId: String) {
        if let position = index(of: participantId) { remotes.remove(at: position) }
    }

    public mutating func removeAllRemotes() { remotes.removeAll() }

    private func insertionIndex(of participantId: String) -> Int {
        var low = 0
        var high = remotes.count
        while low < high {
            let middle = (low + high) / 2
            if remotes[middle].info.participantId < participantId { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
