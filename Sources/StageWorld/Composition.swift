import StageCore

/// How a server-side composition lays out the stage from participants' attributes (TOK-9).
public struct CompositionOptions: Hashable, Sendable {
    /// The attribute whose value `true` makes a participant the featured one.
    public var featuredParticipantAttribute: String
    /// The attribute holding a participant's position (an integer; missing ones go last).
    public var participantOrderAttribute: String
    /// false (the seed's behaviour): attributes changed by token exchange reach the layout
    /// only when the participant reconnects (a reconnect the service kept it for counts) or
    /// publishes again. true: a newer page's behaviour,
    /// the layout follows exchanged attributes at once.
    public var liveLayoutUpdates: Bool

    public init(featuredParticipantAttribute: String = "featured", participantOrderAttribute: String = "order", liveLayoutUpdates: Bool = false) {
        self.featuredParticipantAttribute = featuredParticipantAttribute
        self.participantOrderAttribute = participantOrderAttribute
        self.liveLayoutUpdates = liveLayoutUpdates
    }
}

/// The layout a composition shows: who is featured and the order of the other tiles (TOK-9).
public struct CompositionLayout: Hashable, Sendable {
    public var featured: String?
    public var order: [String]

    public var summary: String { "featured=\(featured ?? "-") order=[\(order.joined(separator: ","))]" }
}

extension Client {
    /// The layout this composition shows now, from the info it has of each publishing
    /// participant; nil for clients that are not a composition.
    public var compositionLayout: CompositionLayout? {
        guard sdk == .composition else { return nil }
        // Each tile's position is read once, and the closures capture the attribute names, not
        // the client (a capture of `self` copies the whole client at every comparison).
        let (orderAttribute, featuredAttribute) = (config.composition.participantOrderAttribute, config.composition.featuredParticipantAttribute)
        let shown = view.remotes.filter(\.announced).map { (position: Int($0.info.attributes[orderAttribute] ?? "") ?? Int.max, info: $0.info) }
        let ordered = shown.sorted { ($0.position, $0.info.participantId) < ($1.position, $1.info.participantId) }.map(\.info)
        let featured = ordered.first { $0.attributes[featuredAttribute] == "true" }?.participantId
        return CompositionLayout(featured: featured, order: ordered.map(\.participantId))
    }
}

extension Client {
    /// Another participant joined again on a new connection the service kept it for (NET-3):
    /// its subscribers' media comes back (SUB-4), and a composition lays it out with the info
    /// it holds now (TOK-9: the reconnect is when exchanged attributes reach the layout).
    mutating func remoteReconnected(_ info: ParticipantInfo, into output: inout Output) {
        output.remoteConnections.append(.reconnected(participantId: info.participantId))
        guard sdk == .composition, let index = view.index(of: info.participantId), view[index: index].announced else { return }
        view[index: index].info = info
    }
}
