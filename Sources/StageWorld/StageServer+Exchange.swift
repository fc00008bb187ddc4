import Simulation
import StageCore

extension StageServer {
    /// exchangeToken on the service side (TOK-3..5): the new token must verify, both tokens
    /// must be key-pair tokens, and the immutable fields must not change. On success the
    /// participant's info changes in place, with no reconnect, and every other client hears it.
    mutating func exchange(_ token: String, clientIndex: Int, now: VirtualTime) -> Reply {
        guard let index = index(ofClient: clientIndex) else { return Reply() }
        switch verify(token, now: now) {
        case .failure(let rejection):
            let error = StageError(code: rejection.stageError.code, category: .exchangeToken, isFatal: false)
            return refuseExchange(clientIndex, error, rejection.reason)
        case .success(let verified):
            if let reason = Self.exchangeRefusal(current: participants[index], new: verified) {
                return refuseExchange(clientIndex, StageError(code: .tokenNotAllowed, category: .exchangeToken, isFatal: false), reason)
            }
            var info = verified.claims.participantInfo(isLocal: false)
            if Mutants.isOn(.serviceKeepsSubscribeCapability) { info.capabilities.canSubscribe = participants[index].info.capabilities.canSubscribe }
            participants[index].claims = verified.claims
            participants[index].info = info
            var reply = Reply(
                outgoing: [reply(.exchangeAccepted(info), to: clientIndex)] + broadcast(.participantUpdated(info), except: clientIndex),
                events: [.metadataUpdated(info)]
            )
            if !info.capabilities.canPublish && !Mutants.isOn(.serviceKeepsPublishAfterCapabilityLoss) {
                reply.merge(stopPublishing(index, reason: "the exchanged token does not allow publishing (TOK-7)"))
            }
            return reply
        }
    }

    /// TOK-7 on the service's side: a participant whose accepted token no longer allows
    /// publishing stops publishing at once; the others hear it unpublish now, not when its own
    /// unpublish arrives.
    mutating func stopPublishing(_ index: Int, reason: String) -> Reply {
        guard !participants[index].publishedStreams.isEmpty else { return Reply() }
        participants[index].publishedStreams = []
        let id = participants[index].info.participantId
        return Reply(
            outgoing: broadcast(.participantUnpublished(participantId: id), except: participants[index].clientIndex),
            events: [.publishStopped(participantId: id, reason: reason)]
        )
    }

    /// Why the service refuses an otherwise valid token as an exchange, or nil.
    static func exchangeRefusal(current: ServerParticipant, new: VerifiedToken) -> String? {
        if current.origin != .keyPair || new.origin != .keyPair {
            return "token exchange works only with key-pair tokens, not tokens the service issued (TOK-3)"
        }
        if let field = TokenClaims.changedImmutableField(from: current.claims, to: new.claims), !Mutants.isOn(.acceptChangedImmutableField) {
            return "the immutable field '\(field)' changed (TOK-4)"
        }
        return nil
    }

    private func refuseExchange(_ clientIndex: Int, _ error: StageError, _ reason: String) -> Reply {
        Reply(
            outgoing: [reply(.exchangeRejected(error, reason: reason), to: clientIndex)],
            events: [.refused(operation: "exchangeToken", error: error, reason: reason)]
        )
    }
}
