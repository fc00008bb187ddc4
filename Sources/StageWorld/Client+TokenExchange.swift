import StageCore

extension Client {
    /// exchangeToken(new) (TOK-3..5). The SDK reads the new token and refuses it at once, with
    /// nothing changed, when it cannot be read or changes an immutable field (TOK-4). Before
    /// joining the token is simply replaced; once connected the service must verify it first.
    /// While a join (or a reconnect) is in progress the exchange waits for it to end, as the
    /// seed's own example calls it: `stage.join()` then `stage.exchangeToken(newToken)`.
    mutating func exchangeToken(_ newToken: String) -> Output {
        var output = Output()
        exchangeToken(newToken, into: &output)
        return output
    }

    private mutating func exchangeToken(_ newToken: String, into output: inout Output) {
        guard case .mobile = config.sdk else {
            return refuse("exchangeToken is an API of the mobile SDKs only", code: .tokenNotAllowed, into: &output)
        }
        guard let newClaims = TokenCodec.decodeUnverified(newToken) else {
            return refuse("the new token cannot be read", code: .tokenMalformed, into: &output)
        }
        if let current = claims, let field = TokenClaims.changedImmutableField(from: current, to: newClaims),
           !Mutants.isOn(.acceptChangedImmutableField) {
            return refuse("the immutable field '\(field)' changed (TOK-4)", code: .tokenNotAllowed, into: &output)
        }
        switch view.local.connectionState {
        case .connected:
            pendingExchanges.append(newToken)
            output.messages.append(.exchangeToken(newToken))
        case .disconnected, .errored:
            adopt(token: newToken, claims: newClaims)
            view.local.info = newClaims.participantInfo(isLocal: true)
        case .connecting:
            deferredExchanges.append(newToken)
        }
    }

    /// The join the deferred exchanges waited for has ended, connected or not: each is carried
    /// out now, in call order, as a call made at this moment would be (sent to the service, or
    /// adopted at once after a failed join).
    mutating func runDeferredExchanges(into output: inout Output) {
        let tokens = deferredExchanges
        deferredExchanges = []
        for token in tokens { exchangeToken(token, into: &output) }
    }

    private func refuse(_ reason: String, code: StageErrorCode, into output: inout Output) {
        output.errors.append(SDKErrorReport(error: StageError(code: code, category: .exchangeToken, isFatal: false), reason: reason))
    }

    /// The service verified the exchanged token: the new capabilities take effect with no
    /// reconnect (TOK-5..8).
    mutating func exchangeAccepted(_ info: ParticipantInfo, strategy: some StrategyAnswers, into output: inout Output) {
        guard !pendingExchanges.isEmpty else { return }
        let newToken = pendingExchanges.removeFirst()
        guard let newClaims = TokenCodec.decodeUnverified(newToken) else { return }
        adopt(token: newToken, claims: newClaims)
        var local = info
        local.isLocal = true
        output.apply(Reconciler.tokenExchanged(&view, newInfo: local, strategy: strategy), from: self)
    }

    /// Another participant exchanged its token (VIS-1..4). Renderers of a mobile SDK >= 1.37.0
    /// hear participantMetadataDidUpdate at once when the participant is announced and its
    /// userId or attributes changed. Other SDKs
    /// keep the announced info until the participant publishes again; a composition with live
    /// layout updates takes the new attributes silently (TOK-9 option). A participant not yet
    /// announced is updated silently: its join event will carry the new info (VIS-2).
    mutating func remoteMetadataUpdated(_ info: ParticipantInfo, into output: inout Output) {
        guard let index = view.index(of: info.participantId) else { return }
        guard view[index: index].announced else {
            view[index: index].info = info
            return
        }
        if config.sdk.hasMetadataUpdateEvent || Mutants.isOn(.metadataEventToOldSDKs) {
            let shown = view[index: index].info
            view[index: index].info = info
            if shown.userId != info.userId || shown.attributes != info.attributes {
                output.events.append(.participantMetadataDidUpdate(info))
            }
        } else if config.sdk == .composition && config.composition.liveLayoutUpdates {
            view[index: index].info = info
        }
    }

    /// The service dropped this connection (TOK-10): renderers see everything leave, then
    /// `disconnected` with PARTICIPANT_DISCONNECTED.
    mutating func ejected(_ reason: String, into output: inout Output) {
        let error = StageError(code: .participantDisconnected, category: .connection, isFatal: true)
        disconnect(error: error, into: &output)
        output.errors.append(SDKErrorReport(error: error, reason: reason))
    }
}
