import Simulation
import StageCore

/// A participant connected to the stage service.
public struct ServerParticipant: Hashable, Sendable {
    public var info: ParticipantInfo
    public var clientIndex: Int
    public var publishedStreams: [StageStream]
}

/// The stage service: token checks on join, the participant registry, publish capacity, and
/// fan-out of join/publish/leave notifications to every other connected client (STG, TOK-1).
public struct StageServer: Hashable, Sendable {
    public var stageId: String
    /// The maximum number of simultaneous publishers (STG-4, default 12).
    public var publisherCapacity: Int
    /// Connected participants, sorted by participant id.
    public private(set) var participants: [ServerParticipant] = []

    public init(stageId: String, publisherCapacity: Int = 12) {
        self.stageId = stageId
        self.publisherCapacity = publisherCapacity
    }

    /// A reply or notification the service sends.
    public struct Outgoing: Hashable, Sendable {
        public var clientIndex: Int
        public var message: WireMessage
    }

    public var publisherCount: Int { participants.filter { !$0.publishedStreams.isEmpty }.count }

    public func participant(_ id: String) -> ServerParticipant? {
        participants.first(where: { $0.info.participantId == id })
    }

    /// Handles one message from a client; returns what the service sends in response.
    public mutating func handle(_ message: WireMessage, from clientIndex: Int, now: VirtualTime) -> [Outgoing] {
        switch message {
        case .join(let claims): return join(claims, clientIndex: clientIndex, now: now)
        case .publish(let streams): return publish(streams, clientIndex: clientIndex)
        case .unpublish: return unpublish(clientIndex: clientIndex)
        case .mute(let kind, let muted): return mute(kind, muted, clientIndex: clientIndex)
        case .subscribe(let publisherId, _): return subscribe(to: publisherId, clientIndex: clientIndex)
        case .unsubscribe: return []
        case .leave: return leave(clientIndex: clientIndex)
        default: return []
        }
    }

    private func tokenError(_ claims: TokenClaims, now: VirtualTime) -> StageError? {
        if !TokenClaims.isValidParticipantId(claims.participantId)
            || claims.attributes.byteCount > TokenClaims.attributesByteLimit {
            return StageError(code: .tokenMalformed, category: .join, isFatal: true)
        }
        if claims.expiresAtSeconds * 1_000_000_000 <= now.nanoseconds {
            return StageError(code: .tokenExpired, category: .join, isFatal: true)
        }
        if claims.topic != stageId {
            return StageError(code: .tokenNotAllowed, category: .join, isFatal: true)
        }
        return nil
    }

    private mutating func join(_ claims: TokenClaims, clientIndex: Int, now: VirtualTime) -> [Outgoing] {
        if let error = tokenError(claims, now: now) {
            return [Outgoing(clientIndex: clientIndex, message: .joinRejected(error))]
        }
        if participants.contains(where: { $0.clientIndex == clientIndex }) {
            return [Outgoing(clientIndex: clientIndex, message: .joinAccepted(snapshots(except: clientIndex)))]
        }
        let info = claims.participantInfo(isLocal: false)
        let others = participants.filter { $0.clientIndex != clientIndex }
        var outgoing = [Outgoing(clientIndex: clientIndex, message: .joinAccepted(snapshots(except: clientIndex)))]
        outgoing += others.map { Outgoing(clientIndex: $0.clientIndex, message: .participantJoined(info)) }
        insert(ServerParticipant(info: info, clientIndex: clientIndex, publishedStreams: []))
        return outgoing
    }

    private mutating func publish(_ streams: [StageStream], clientIndex: Int) -> [Outgoing] {
        guard let index = participants.firstIndex(where: { $0.clientIndex == clientIndex }) else { return [] }
        let alreadyPublishing = !participants[index].publishedStreams.isEmpty
        if !alreadyPublishing && publisherCount >= publisherCapacity {
            let error = StageError(code: .stageAtCapacity, category: .publish, isFatal: false)
            return [Outgoing(clientIndex: clientIndex, message: .publishRejected(error))]
        }
        participants[index].publishedStreams = streams
        let snapshot = PublisherSnapshot(info: participants[index].info, streams: streams)
        return [Outgoing(clientIndex: clientIndex, message: .publishAccepted)]
            + broadcast(.participantPublished(snapshot), except: clientIndex)
    }

    private mutating func unpublish(clientIndex: Int) -> [Outgoing] {
        guard let index = participants.firstIndex(where: { $0.clientIndex == clientIndex }),
              !participants[index].publishedStreams.isEmpty else { return [] }
        participants[index].publishedStreams = []
        return broadcast(.participantUnpublished(participantId: participants[index].info.participantId), except: clientIndex)
    }

    /// A publisher muted or unmuted a stream: everyone else hears the new stream states (RND-6).
    private mutating func mute(_ kind: MediaKind, _ muted: Bool, clientIndex: Int) -> [Outgoing] {
        guard let index = participants.firstIndex(where: { $0.clientIndex == clientIndex }),
              let stream = participants[index].publishedStreams.firstIndex(where: { $0.kind == kind }) else { return [] }
        participants[index].publishedStreams[stream].isMuted = muted
        let snapshot = PublisherSnapshot(info: participants[index].info, streams: participants[index].publishedStreams)
        return broadcast(.participantPublished(snapshot), except: clientIndex)
    }

    private func subscribe(to publisherId: String, clientIndex: Int) -> [Outgoing] {
        guard participants.contains(where: { $0.clientIndex == clientIndex }),
              let publisher = participant(publisherId), !publisher.publishedStreams.isEmpty else { return [] }
        return [Outgoing(clientIndex: clientIndex, message: .subscribeAccepted(publisherId: publisherId))]
    }

    private mutating func leave(clientIndex: Int) -> [Outgoing] {
        guard let index = participants.firstIndex(where: { $0.clientIndex == clientIndex }) else { return [] }
        let leaving = participants.remove(at: index)
        return broadcast(.participantLeft(participantId: leaving.info.participantId), except: clientIndex)
    }

    /// Every other connected participant as a joining client first sees it.
    private func snapshots(except clientIndex: Int) -> [PublisherSnapshot] {
        participants.filter { $0.clientIndex != clientIndex }.map { PublisherSnapshot(info: $0.info, streams: $0.publishedStreams) }
    }

    private func broadcast(_ message: WireMessage, except clientIndex: Int) -> [Outgoing] {
        participants.filter { $0.clientIndex != clientIndex }.map { Outgoing(clientIndex: $0.clientIndex, message: message) }
    }

    private mutating func insert(_ participant: ServerParticipant) {
        let position = participants.firstIndex(where: { $0.info.participantId > participant.info.participantId })
        participants.insert(participant, at: position ?? participants.endIndex)
    }
}
