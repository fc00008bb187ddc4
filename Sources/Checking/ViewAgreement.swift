import StageCore
import StageWorld

/// What a client's view must agree on with the stage service whenever nothing is in flight
/// between them (NET-3, STR-2, STR-4, RND-4/5, VIS-1): the same participants, each publishing
/// the same streams and mute states; each subscription complete and carrying exactly the
/// streams its answer allows; its own publish as the strategy asked; metadata as a mobile
/// >= 1.37.0 SDK may see it. Shared by the end-of-run convergence check and the per-step
/// idle-link check.
enum ViewAgreement {
    /// Each way `client`'s view differs from the stage service's record, in words.
    static func differences(_ client: Client, world: World) -> [String] {
        let registered = world.server.participants.first { $0.clientIndex == world.clientIndex(named: client.name) }
        switch client.view.local.connectionState {
        case .connected:
            guard let registered else { return ["it is connected but the stage service does not know it"] }
            return remoteDifferences(client, world: world, except: registered.info.participantId) + localDifferences(client, registered)
        case .disconnected, .errored:
            return registered.map(\.isInterrupted) ?? true ? [] : ["it is disconnected but the stage service still holds it"]
        case .connecting:
            return ["it is still connecting"]
        }
    }

    private static func remoteDifferences(_ client: Client, world: World, except localId: String) -> [String] {
        let truth = world.server.participants.filter { $0.info.participantId != localId }
        var found: [String] = []
        let seen = client.view.remotes.map(\.info.participantId)
        if seen != truth.map(\.info.participantId) {
            found.append("it knows participants \(seen) but the stage has \(truth.map(\.info.participantId))")
        }
        for participant in truth {
            guard let remote = client.view[participant.info.participantId] else { continue }
            found += remoteDifferences(remote, truth: participant, client: client)
        }
        return found
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
        let expected = truth.publishedStreams.filter { allowed.allows($0.kind) }
        if remote.addedStreams.sorted(by: { $0.kind.rawValue < $1.kind.rawValue }) != expected.sorted(by: { $0.kind.rawValue < $1.kind.rawValue }) {
            found.append("its renderers have \(remote.addedStreams) of \(id), but answer \(remote.answer.rawValue) allows \(expected)")
        }
        if allowed != .none && remote.subscribeState != .subscribed {
            found.append("its subscription to \(id) is \(remote.subscribeState.rawValue)")
        }
        if client.config.sdk.hasMetadataUpdateEvent && remote.announced && (remote.info.userId != truth.info.userId || remote.info.attributes != truth.info.attributes) {
            found.append("it shows \(id) as user=\(remote.info.userId) \(remote.info.attributes), the stage holds user=\(truth.info.userId) \(truth.info.attributes)")
        }
        return found
    }

    private static func localDifferences(_ client: Client, _ registered: ServerParticipant) -> [String] {
        let local = client.view.local
        let published = registered.publishedStreams.map { StageStream(participantId: $0.participantId, kind: $0.kind, isMuted: $0.isMuted) }
        let wanted = local.publishTarget && local.publishState != .errored
            ? local.streams.map { StageStream(participantId: registered.info.participantId, kind: $0.kind, isMuted: $0.isMuted) } : []
        guard published != wanted else { return [] }
        return ["it should be publishing \(wanted) but the stage has \(published)"]
    }
}
