// Connect, fail, unsubscribe, stream loss and the SUB-4 drop / reconnect cycle.
extension SubscriberState {
    /// SUB-2: idle -> subscribing.
    mutating func subscribeStep(at: UInt64) -> SubscriberStep {
        guard phase == .idle else { return ignoredInPhase("subscribe", expected: "idle") }
        phase = .subscribing
        subscribedAt = at
        return SubscriberStep()
    }

    /// SUB-2: subscribing -> failed with `subscriberDidFailWithError`.
    mutating func subscribeFailedStep(_ error: SubscriberError) -> SubscriberStep {
        guard phase == .subscribing else { return ignoredInPhase("subscribeFailed", expected: "subscribing") }
        phase = .failed
        return SubscriberStep(events: [.subscriberDidFailWithError(error)])
    }

    /// SUB-2: subscribing -> connected with `subscriberDidConnectToStream`, then any pending
    /// video and layer announcements.
    mutating func mediaStartedStep(at: UInt64) -> SubscriberStep {
        guard phase == .subscribing else { return ignoredInPhase("mediaStarted", expected: "subscribing") }
        phase = .connected
        connectedAt = at
        return SubscriberStep(events: [.subscriberDidConnectToStream] + announcePending())
    }

    /// SUB-3: the subscriber is disconnected; no callback, nothing more is sent.
    mutating func unsubscribeStep() -> SubscriberStep {
        switch phase {
        case .subscribing, .connected, .reconnecting:
            phase = .unsubscribed
            return SubscriberStep()
        default:
            return ignoredInPhase("unsubscribe", expected: "subscribing, connected or reconnecting")
        }
    }

    /// SUB-3 / SUB-4: the stream left; `streamDestroyed` is the last event. While reconnecting
    /// it is the drop's resolution instead of a reconnect.
    mutating func streamDestroyedStep(_ reason: StreamDestroyedReason) -> SubscriberStep {
        phase = .streamDestroyed
        return SubscriberStep(events: [.streamDestroyed(stream, reason: reason)])
    }

    /// SUB-4: connected -> reconnecting with `subscriberDidDisconnectFromStream`.
    mutating func mediaDroppedStep(at: UInt64) -> SubscriberStep {
        guard phase == .connected else { return ignoredInPhase("mediaDropped", expected: "connected") }
        phase = .reconnecting
        disconnectedAt = at
        return SubscriberStep(events: [.subscriberDidDisconnectFromStream])
    }

    /// SUB-4: reconnecting -> connected with `subscriberDidReconnectToStream`, then any video
    /// and layer changes made while media was down.
    mutating func mediaRestoredStep(at: UInt64) -> SubscriberStep {
        guard phase == .reconnecting else { return ignoredInPhase("mediaRestored", expected: "reconnecting") }
        phase = .connected
        connectedAt = at
        return SubscriberStep(events: [.subscriberDidReconnectToStream] + announcePending())
    }

    /// SUB-4: reconnecting -> streamDestroyed(networkDisconnected); never after a reconnect.
    mutating func restoreFailedStep() -> SubscriberStep {
        guard phase == .reconnecting else { return ignoredInPhase("restoreFailed", expected: "reconnecting") }
        return streamDestroyedStep(.networkDisconnected)
    }
}
