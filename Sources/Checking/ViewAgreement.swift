import StageCore
import StageWorld

/// What a client's view must agree on with the stage service whenever nothing is in flight
/// between them (NET-3, STR-2, STR-4, RND-4/5, VIS-1): the same participants, each publishing
/// the same streams and mute states; each subscription complete and carrying exactly the
/// streams its answer allows; its own publish as the strategy asked; metadata as a mobile
/// >= 1.37.0 SDK may see it; no subscriber still reconnecting to a publisher whose connection
/// the service holds again (SUB-4: a dropped subscriber reconnects, or its stream is
/// destroyed). Shared by the end-of-run convergence check and the per-step
/// idle-link check.
enum ViewAgreement {
    /// Each way `client` (at `clientIndex`) differs from the stage service's record, in words.
    /// Cheap when they agree (it runs at every step): no collection is built unless a
    /// difference is found.
    static func differences(_ client: Client, clientIndex: Int, world: World) -> [String] {
        let registered = world.server.participants.firstIndex { $0.clientIndex == clientIndex }.map { world.server.participants[$0] }
        switch client.view.local.connectionState {
        case .connected:
            guard let registered else { return ["it is connected but the stage service does not know it"] }
            return remoteDifferences(client, world: world, except: registered.info.participantId) + localDifferences(client, registered)
                + unresolvedDrops(client, world: world)
        case .disconnected, .errored:
            return registered.map(\.isInterrupted) ?? true ? [] : ["it is disconnected but the stage service still holds it"]
        case .connecting:
            return ["it is still connecting"]
        }
    }

    private static func remoteDifferences(_ client: Client, world: World, except localId: String) -> [String] {
        let participants = world.server.participants
        let remotes = client.view.remotes
        var found: [String] = []
        let same = sameParticipants(remotes, participants, except: localId)
        if !same {
            let truth = participants.map(\.info.participantId).filter { $0 != localId }
            found.append("it knows participants \(remotes.map(\.info.participantId)) but the stage has \(truth)")
        }
        var cursor = 0
        for position in participants.indices where participants[position].info.participantId != localId {
            defer { cursor += 1 }
            let remote = same ? cursor : client.view.index(of: participants[position].info.participantId)
            guard let remote else { continue }
            found += remoteDifferences(remotes[remote], truth: participants[position], client: client)
        }
        return found
    }

    /// Whether the view's remotes are the service's participants but `localId`, in order.
    private static func sameParticipants(_ remotes: [RemoteParticipant], _ participants: [ServerParticipant], except localId: String) -> Bool {
        var position = 0
        for participant in participants.indices where participants[participant].info.participantId != localId {
            guard position < remotes.count, remotes[position].info.participantId == participants[participant].info.participantId else { return false }
            position += 1
        }
        return position == remotes.count
    }

    private static func remoteDifferences(_ remote: RemoteParticipant, truth: ServerParticipant, client: Client) -> [String] {
        let id = truth.info.participantId
        var found: [String] = []
        if remote.publishedStreams != truth.publishedStreams {
            found.append("it sees \(id) publishing \(remote.publishedStreams) but the stage has \(truth.publishedStreams)")
        }
        if remote.announced == truth.publishedStreams.isEmpty {
            found.append("\(id) is \(remote.announced ? "" : "not ")announced to it while \(truth.publishedStreams.isEmpty ? "not " : "")publishing")
        }
        let allowed = remote.target(canSubscribe: client.view.local.info.capabilities.canSubscribe)
        if !addedStreams(remote.addedStreams, areExactly: truth.publishedStreams, allowedBy: allowed) {
            found.append("its renderers have \(remote.addedStreams) of \(id), but answer \(remote.answer.rawValue) allows \(truth.publishedStreams.filter { allowed.allows($0.kind) })")
        }
        if allowed != .none && remote.subscribeState != .subscribed {
            found.append("its subscription to \(id) is \(remote.subscribeState.rawValue)")
        }
        if client.config.sdk.hasMetadataUpdateEvent && remote.announced && (remote.info.userId != truth.info.userId || remote.info.attributes != truth.info.attributes) {
            found.append("it shows \(id) as user=\(remote.info.userId) \(remote.info.attributes), the stage holds user=\(truth.info.userId) \(truth.info.attributes)")
        }
        return found
    }

    /// Whether the renderers hold exactly the published streams the subscription allows, in
    /// any order (one stream per kind).
    private static func addedStreams(_ added: [StageStream], areExactly published: [StageStream], allowedBy allowed: SubscribeType) -> Bool {
        var expectedCount = 0
        for stream in published where allowed.allows(stream.kind) {
            guard added.contains(stream) else { return false }
            expectedCount += 1
        }
        return added.count == expectedCount
    }

    /// SUB-4: a subscriber whose media dropped (`subscriberDidDisconnectFromStream`) hears
    /// `subscriberDidReconnectToStream` or `streamDestroyed`. With the client connected, only a
    /// publisher the service still holds interrupted keeps it waiting; once the publisher is
    /// back, or gone, the client has heard so. Cheap: it looks at reconnecting subscribers only.
    private static func unresolvedDrops(_ client: Client, world: World) -> [String] {
        var found: [String] = []
        for slot in client.subscribers where slot.state.phase == .reconnecting {
            let publisher = world.server.participant(slot.publisherId)
            guard publisher?.isInterrupted != true else { continue }
            let now = publisher == nil ? "gone from the stage" : "back on a live connection"
            found.append("its subscriber to \(slot.state.stream.streamId) is still reconnecting, though \(slot.publisherId) is \(now)")
        }
        return found
    }

    private static func localDifferences(_ client: Client, _ registered: ServerParticipant) -> [String] {
        let local = client.view.local
        let wanted = local.publishTarget && local.publishState != .errored ? local.streams : []
        let agree = registered.publishedStreams.count == wanted.count
            && zip(registered.publishedStreams, wanted).allSatisfy { $0.kind == $1.kind && $0.isMuted == $1.isMuted }
        guard !agree else { return [] }
        let published = registered.publishedStreams.map { StageStream(participantId: $0.participantId, kind: $0.kind, isMuted: $0.isMuted) }
        let asked = wanted.map { StageStream(participantId: registered.info.participantId, kind: $0.kind, isMuted: $0.isMuted) }
        return ["it should be publishing \(asked) but the stage has \(published)"]
    }
}
