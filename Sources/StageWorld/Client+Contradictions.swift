extension Client {
    /// Why `message` contradicts what this client knows, or nil (SIG-8, RND-3). Such a message
    /// is refused as a protocol error and changes nothing.
    ///
    /// The stage service tells an admitted client about every other participant, in order, on
    /// one connection: the offer lists them all and each later join, publish, update and leave
    /// follows. While connected, the client therefore knows exactly the participants the service
    /// holds besides itself and what each publishes, and no correct run sends it a message that names
    /// itself as another participant, announces a participant it already knows, names one it
    /// does not know, unpublishes, interrupts or grants a subscription to one that is not
    /// publishing (only publishers are kept through a drop, SUB-4), answers a join on a
    /// connection that is already connected, or answers a token exchange it has not asked for;
    /// nor an offer that gives it another participant's connection id.
    /// Messages the client ignores in its state are not checked, since they change nothing:
    /// late answers after a leave or a give-up, and events on a connection the client is
    /// already reconnecting from.
    func contradiction(in message: WireMessage) -> String? {
        switch view.local.connectionState {
        case .connecting: offerContradiction(message)
        case .connected: connectedContradiction(message)
        case .disconnected, .errored: nil
        }
    }

    private var ownId: String { view.local.info.participantId }

    private func offerContradiction(_ message: WireMessage) -> String? {
        guard case .joinAccepted(_, let connectionId) = message, connectionId != ownId else { return nil }
        return "the offer gives connection \(connectionId) to a client whose participant id is \(ownId)"
    }

    private func connectedContradiction(_ message: WireMessage) -> String? {
        switch message {
        case .joinAccepted, .joinRejected:
            return "answers a join, but the client is already connected on this connection"
        case .exchangeAccepted(let info) where !pendingExchanges.isEmpty && info.participantId != ownId:
            return "accepts a token exchange for \(info.participantId), not for this client (\(ownId))"
        case .exchangeAccepted, .exchangeRejected:
            return pendingExchanges.isEmpty ? "answers a token exchange, but no token exchange is pending" : nil
        case .participantJoined(let info, _):
            return namesSelf(info.participantId)
                ?? (view.index(of: info.participantId) == nil ? nil : "announces \(info.participantId), a participant this client already knows")
        case .participantPublished(let snapshot):
            return notAKnownRemote(snapshot.info.participantId)
        case .participantUpdated(let info), .participantReconnected(let info):
            return notAKnownRemote(info.participantId)
        case .participantUnpublished(let id), .participantInterrupted(let id), .subscribeAccepted(let id):
            return notAKnownRemote(id) ?? (view[id]?.isPublishing == true ? nil : "names \(id), which is not publishing")
        case .participantLeft(let id):
            return notAKnownRemote(id)
        default:
            return nil
        }
    }

    private func namesSelf(_ id: String) -> String? {
        id == ownId ? "names this client's own participant id \(id) as another participant" : nil
    }

    private func notAKnownRemote(_ id: String) -> String? {
        namesSelf(id) ?? (view.index(of: id) == nil ? "names \(id), a participant this client does not know" : nil)
    }
}
