import StageCore

extension Client {
    /// Opens a new connection and asks to join on it: messages of older connections are
    /// discarded from now on (NET-3), so token exchanges still waiting for their answer will
    /// never hear it; they wait, before any exchange deferred meanwhile, for this join to end,
    /// and are then asked again (TOK-5).
    mutating func openConnection(into output: inout Output) {
        epoch += 1
        pingsHeard = 0
        publishRepliesOwed = 0
        deferredExchanges = pendingExchanges + deferredExchanges
        pendingExchanges = []
        output.messages.append(.join(token: token, metadata: config.connectMetadata))
    }

    /// SIG-6: every ping is answered at once and re-arms the watchdog.
    mutating func heardPing(into output: inout Output) {
        pingsHeard += 1
        output.messages.append(.pong)
        armWatchdog(into: &output)
    }

    mutating func armWatchdog(into output: inout Output) {
        guard keepalive.isEnabled else { return }
        output.timers.append((after: keepalive.clientWatchdog, timer: .pingWatchdog(connection: epoch, pingsHeard: pingsHeard)))
    }

    /// No ping for a whole watchdog period: the connection is lost (NET-3). Renderers hear
    /// `connecting`; the view is kept until a reconnect tells what survived.
    mutating func pingWatchdogFired() -> Output {
        var output = Output()
        view.local.connectionState = .connecting
        reconnectAttempt = 1
        output.events.append(.connectionStateChanged(.connecting, nil))
        output.timers.append((after: config.reconnect.backoff(beforeAttempt: 1), timer: .reconnectAttempt(1)))
        return output
    }

    /// NET-3: attempt `number` joins again on a new connection with the same token; after the
    /// last attempt's wait, the SDK gives up: everything leaves and the state is `disconnected`
    /// with TIMEOUT.
    mutating func reconnectAttemptDue(_ number: Int) -> Output {
        var output = Output()
        if number > config.reconnect.maxAttempts {
            disconnect(error: StageError(code: .timeout, category: .join, isFatal: true), into: &output)
            output.messages.append(.leave)
            return output
        }
        reconnectAttempt = number + 1
        openConnection(into: &output)
        output.timers.append((after: config.reconnect.backoff(beforeAttempt: number + 1), timer: .reconnectAttempt(number + 1)))
        return output
    }

    /// Joined again after a lost connection (NET-3): participants that are gone leave, streams
    /// that survived stay (their subscriptions are asked for again, silently), changed ones
    /// are updated, metadata updates missed while away reach a mobile >= 1.37.0 SDK as
    /// participantMetadataDidUpdate (VIS-3), the local publish is sent again, and the strategy
    /// is re-applied (then a publish the service may have kept is ended, `endKeptPublish`).
    mutating func reconnected(_ snapshots: [PublisherSnapshot], strategy: some StrategyAnswers) -> Output {
        var output = Output()
        view.local.connectionState = .connected
        reconnectAttempt = nil
        armWatchdog(into: &output)
        output.events.append(.connectionStateChanged(.connected, nil))
        let present = Set(snapshots.map(\.info.participantId))
        for remote in view.remotes where !present.contains(remote.info.participantId) && !Mutants.isOn(.keepGoneRemotesOnReconnect) {
            output.apply(Reconciler.remoteStoppedPublishing(&view, participantId: remote.info.participantId), from: self)
            view.remove(remote.info.participantId)
        }
        for snapshot in snapshots { restore(snapshot, strategy: strategy, into: &output) }
        if view.local.isPublishingOrAttempting {
            output.messages += messages(for: .publish(view.local.publishedStreams))
        }
        output.apply(Reconciler.refresh(&view, strategy: strategy), from: self)
        endKeptPublish(into: &output)
        runDeferredExchanges(into: &output)
        return output
    }

    /// SUB-4: a client that held an earlier connection and is not publishing after joining
    /// again says so: the service may have kept its earlier publish through a drop (the
    /// reconnect grace period), and a leave sent meanwhile may have died with its connection.
    mutating func endKeptPublish(into output: inout Output) {
        guard epoch > 1, !view.local.isPublishingOrAttempting else { return }
        output.messages.append(.unpublish)
    }

    private mutating func restore(_ snapshot: PublisherSnapshot, strategy: some StrategyAnswers, into output: inout Output) {
        let id = snapshot.info.participantId
        guard let index = view.index(of: id) else {
            remoteJoined(snapshot.info, strategy: strategy)
            if !snapshot.streams.isEmpty { remotePublished(snapshot, strategy: strategy, into: &output) }
            return
        }
        if snapshot.streams.isEmpty {
            output.apply(Reconciler.remoteStoppedPublishing(&view, participantId: id), from: self)
            return
        }
        guard view[index: index].announced else {
            remotePublished(snapshot, strategy: strategy, into: &output)
            return
        }
        learnProperties(of: snapshot, into: &output)
        if config.sdk.hasMetadataUpdateEvent && !Mutants.isOn(.staleMetadataAfterReconnect) {
            remoteMetadataUpdated(snapshot.info, into: &output)
        }
        let requested = view[index: index].requested
        if requested != .none { output.messages.append(.subscribe(publisherId: id, requested)) }
        output.apply(Reconciler.remoteStreamsChanged(&view, participantId: id, streams: snapshot.streams), from: self)
    }
}
