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
    /// Each way client `clientIndex` differs from the stage service's record, in words.
    /// Cheap when they agree (it runs at every step): no collection is built unless a
    /// difference is found, and the service's and the view's records are read in place,
    /// field by field; the client itself is never copied.
    static func differences(clientIndex: Int, world: World) -> [String] {
        let participants = world.server.participants
        let registered = participants.firstIndex { $0.clientIndex == clientIndex }
        switch world.clients[clientIndex].view.local.connectionState {
        case .connected:
            guard let registered else { return ["it is connected but the stage service does not know it"] }
            var found: [String] = []
            let view = world.clients[clientIndex].view
            let seesMetadata = world.clients[clientIndex].sdk.hasMetadataUpdateEvent
            remoteDifferences(view, seesMetadata: seesMetadata, participants, except: participants[registered].info.participantId, into: &found)
            localDifferences(view.local, participants, registered, into: &found)
            unresolvedDrops(world.clients[clientIndex].subscribers, participants, into: &found)
            return found
        case .disconnected, .errored:
            return registered.map { participants[$0].isInterrupted } ?? true ? [] : ["it is disconnected but the stage service still holds it"]
        case .connecting:
            return ["it is still connecting"]
        }
    }

    private static func remoteDifferences(_ view: StageView, seesMetadata: Bool, _ participants: [ServerParticipant], except localId: String, into found: inout [String]) {
        let remotes = view.remotes
        let same = sameParticipants(remotes, participants, except: localId)
        if !same {
            let truth = participants.map(\.info.participantId).filter { $0 != localId }
            found.append("it knows participants \(remotes.map(\.info.participantId)) but the stage has \(truth)")
        }
        let reader = RemoteReader(canSubscribe: view.local.info.capabilities.canSubscribe, seesMetadata: seesMetadata)
        var cursor = 0
        for position in participants.indices where participants[position].info.participantId != localId {
            defer { cursor += 1 }
            let remote = same ? cursor : view.index(of: participants[position].info.participantId)
            guard let remote else { continue }
            reader.differences(remotes, remote, truth: participants, position, into: &found)
        }
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

    /// What one client reads the same way of every remote: whether its token may subscribe,
    /// and whether its SDK is told metadata updates (read once per client, not per remote).
    private struct RemoteReader {
        let canSubscribe: Bool
        let seesMetadata: Bool

        /// How remote `remote` of `remotes` differs from participant `position` of `truth`.
        func differences(_ remotes: [RemoteParticipant], _ remote: Int, truth: [ServerParticipant], _ position: Int, into found: inout [String]) {
            let id = truth[position].info.participantId
            let published = truth[position].publishedStreams
            if remotes[remote].publishedStreams != published {
                found.append("it sees \(id) publishing \(remotes[remote].publishedStreams) but the stage has \(published)")
            }
            let announced = remotes[remote].announced
            if announced == published.isEmpty {
                found.append("\(id) is \(announced ? "" : "not ")announced to it while \(published.isEmpty ? "not " : "")publishing")
            }
            let allowed = remotes[remote].target(canSubscribe: canSubscribe)
            if !addedStreams(remotes[remote].addedStreams, areExactly: published, allowedBy: allowed) {
                found.append("its renderers have \(remotes[remote].addedStreams) of \(id), but answer \(remotes[remote].answer.rawValue) allows \(published.filter { allowed.allows($0.kind) })")
            }
            if allowed != .none && remotes[remote].subscribeState != .subscribed {
                found.append("its subscription to \(id) is \(remotes[remote].subscribeState.rawValue)")
            }
            if seesMetadata && announced && (remotes[remote].info.userId != truth[position].info.userId || remotes[remote].info.attributes != truth[position].info.attributes) {
                let (shown, held) = (remotes[remote].info, truth[position].info)
                found.append("it shows \(id) as user=\(shown.userId) \(shown.attributes), the stage holds user=\(held.userId) \(held.attributes)")
            }
        }
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
    /// back, or gone, the client has heard so. Cheap: it looks at reconnecting subscribers only,
    /// in place.
    private static func unresolvedDrops(_ subscribers: [SubscriberSlot], _ participants: [ServerParticipant], into found: inout [String]) {
        for slot in subscribers.indices where subscribers[slot].state.phase == .reconnecting {
            let publisherId = subscribers[slot].publisherId
            let publisher = participants.firstIndex { $0.info.participantId == publisherId }
            guard publisher.map({ participants[$0].isInterrupted }) != true else { continue }
            let now = publisher == nil ? "gone from the stage" : "back on a live connection"
            found.append("its subscriber to \(subscribers[slot].state.stream.streamId) is still reconnecting, though \(publisherId) is \(now)")
        }
    }

    private static func localDifferences(_ local: LocalParticipant, _ participants: [ServerParticipant], _ registered: Int, into found: inout [String]) {
        let wanted = local.publishTarget && local.publishState != .errored ? local.streams : []
        let publishedStreams = participants[registered].publishedStreams
        let agree = publishedStreams.count == wanted.count
            && zip(publishedStreams, wanted).allSatisfy { $0.kind == $1.kind && $0.isMuted == $1.isMuted }
        guard !agree else { return }
        let published = publishedStreams.map { StageStream(participantId: $0.participantId, kind: $0.kind, isMuted: $0.isMuted) }
        let asked = wanted.map { StageStream(participantId: participants[registered].info.participantId, kind: $0.kind, isMuted: $0.isMuted) }
        found.append("it should be publishing \(asked) but the stage has \(published)")
    }
}
