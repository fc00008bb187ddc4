/// A deliberate bug that a debug build can switch on, so the tests can show that the invariant
/// monitors and the fuzzer catch it ("the tests of the tests"). Each names the rule it breaks.
public enum Mutant: String, CaseIterable, Sendable {
    /// RND-5: a remote that stops publishing leaves without its streams being removed.
    case keepStreamsAfterLeave = "keep-streams-after-leave"
    /// VIS-1: participantMetadataDidUpdate goes to every SDK kind.
    case metadataEventToOldSDKs = "metadata-event-to-old-sdks"
    /// TOK-6: gaining the publish capability does not ask the strategy.
    case skipStrategyOnCapabilityGain = "skip-strategy-on-capability-gain"
    /// TOK-7: losing the publish capability does not unpublish.
    case keepPublishingAfterCapabilityLoss = "keep-publishing-after-capability-loss"
    /// STR-2: subscribe to a remote before it publishes.
    case subscribeBeforePublish = "subscribe-before-publish"
    /// TOK-4: an exchange that changes an immutable field is accepted.
    case acceptChangedImmutableField = "accept-changed-immutable-field"
    /// STR-5: a refresh with unchanged answers still emits an event.
    case eventsOnUnchangedRefresh = "events-on-unchanged-refresh"
    /// SUB-4: a subscriber reports a reconnect without a prior disconnect.
    case reconnectWithoutDisconnect = "reconnect-without-disconnect"
    /// SUB-4: a drop that cannot be restored reports both a reconnect and streamDestroyed.
    case bothReconnectAndDestroyed = "both-reconnect-and-destroyed"
    /// LST-2: a new stream instance's mute state is ignored.
    case ignoreNewInstanceMute = "ignore-new-instance-mute"
    /// RND-3: a remote leaving the stage gets no participantDidLeave.
    case noLeaveOnRemoteLeave = "no-leave-on-remote-leave"
    /// RND-3: a stream change of an announced publisher announces it again.
    case joinAgainOnStreamChange = "join-again-on-stream-change"
    /// RND-4: video is added under an audioOnly subscription.
    case videoUnderAudioOnly = "video-under-audio-only"
    /// NET-3: a reconnect keeps remotes that left while the client was away.
    case keepGoneRemotesOnReconnect = "keep-gone-remotes-on-reconnect"
    /// VIS-3: a reconnect hides metadata updates missed while away from mobile >= 1.37.0.
    case staleMetadataAfterReconnect = "stale-metadata-after-reconnect"
    /// NET-3, RND-5: a reconnect the service refuses reports `disconnected` and keeps the
    /// remotes' streams, the local publish and the subscribers.
    case keepViewOnRefusedReconnect = "keep-view-on-refused-reconnect"
    /// SIG-6: frames in flight on a connection the service closed are still delivered.
    case framesOutliveClosedConnection = "frames-outlive-closed-connection"
    /// STR-5, STG-4: a refresh does not retry a publish that errored (STAGE_AT_CAPACITY).
    case noRetryOfErroredPublish = "no-retry-of-errored-publish"
    /// TOK-7: the stage service keeps a publish after accepting a token without allow_publish,
    /// until the client's own unpublish arrives.
    case serviceKeepsPublishAfterCapabilityLoss = "service-keeps-publish-after-capability-loss"
    /// RND-4 + SUB-5: an OpenTok subscriber keeps `subscribeToVideo` on under an audioOnly
    /// answer given before it connected, so it reports video layers and quality events.
    case videoEventsUnderAudioOnly = "video-events-under-audio-only"
    /// SUB-4: the service ejects a publisher whose connection dropped at once, so its
    /// subscribers see the stream destroyed (and a new one) instead of a disconnect/reconnect.
    case ejectDroppedPublisherAtOnce = "eject-dropped-publisher-at-once"
    /// TOK-8: an accepted exchange that removes allow_subscribe leaves the service's record of
    /// the participant (and so the client's) able to subscribe; the service grants subscriptions.
    case serviceKeepsSubscribeCapability = "service-keeps-subscribe-capability"
    /// SIG-2: the service passes a participant's private connect `metadata` to the others in
    /// place of its `notifyMetadata`.
    case leakConnectMetadata = "leak-connect-metadata"
    /// SIG-6: the pong deadline drops the connection even when its ping was answered in time.
    case dropAnsweredConnection = "drop-answered-connection"
    /// STG-3: an unanswered join is retried forever, never reporting FAILED.
    case retryJoinForever = "retry-join-forever"
    /// NET-2: a frame's transmission time on a narrow link counts its size in bytes, not bits.
    case signalingBandwidthInBytes = "signaling-bandwidth-in-bytes"
    /// SIG-6: the stage service pings each connection every two ping intervals.
    case slowKeepalivePings = "slow-keepalive-pings"
}

/// The switch for mutants: a task-local, so a mutant is on only inside `withMutant`'s body (and
/// the child tasks it starts), never in another test running beside it. Threads the body
/// hands work to (Dispatch workers) do not inherit it: capture `current` before and re-bind it
/// in each worker with `withMutant`. Only builds with the `MUTANTS` condition (debug builds)
/// can turn one on; everywhere else `isOn` is constant false and the checks compile away.
public enum Mutants {
    #if MUTANTS
    @TaskLocal private static var active: Mutant?
    #endif

    /// Whether this build can carry mutants (debug builds).
    public static var areAvailable: Bool {
        #if MUTANTS
        true
        #else
        false
        #endif
    }

    /// The mutant switched on where this is called (nil: none).
    public static var current: Mutant? {
        #if MUTANTS
        active
        #else
        nil
        #endif
    }

    /// Runs `body` with `mutant` switched on (nil: none). In a build without mutants `body`
    /// runs unchanged; check `areAvailable` first where that matters.
    public static func withMutant<Result>(_ mutant: Mutant?, _ body: () throws -> Result) rethrows -> Result {
        #if MUTANTS
        try $active.withValue(mutant, operation: body)
        #else
        try body()
        #endif
    }

    @inline(__always)
    public static func isOn(_ mutant: Mutant) -> Bool {
        #if MUTANTS
        active == mutant
        #else
        false
        #endif
    }
}
