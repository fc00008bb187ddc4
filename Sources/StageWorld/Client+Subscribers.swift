import Simulation
import StageCore
import SubscriberModel

/// One remote publisher's stream as an OpenTok-style subscriber sees it (SUB-1..6): the
/// announcement number tells a republished stream from the one before.
public struct SubscriberSlot: Hashable, Sendable {
    public var publisherId: String
    public var announcement: Int
    public var state: SubscriberState
    /// Which subscriber object of this announcement's stream this is, from 1: an unsubscribe
    /// ends one (SUB-3), and subscribing to the same stream again makes the next, which
    /// connects anew (SUB-2: `subscriberDidConnectToStream` "when the app starts receiving").
    public var subscriber = 1

    var isActive: Bool {
        switch state.phase {
        case .subscribing, .connected, .reconnecting: true
        default: false
        }
    }
}

/// Another participant's connection as the stage service reports it (SUB-4): dropped and kept
/// for the reconnect grace period, or back on a new connection.
public enum RemoteConnectionChange: Hashable, Sendable {
    case interrupted(participantId: String)
    case reconnected(participantId: String)
}

/// A subscriber-lifecycle event for the trace: whose stream, and which announcement of it.
public struct SubscriberTraceEvent: Hashable, Sendable {
    public var publisherId: String
    public var streamId: String
    public var event: SubscriberEvent
    /// The subscriber object the event is about (`SubscriberSlot.subscriber`); session events
    /// (streamCreated, streamDestroyed) carry the current one.
    public var subscriber = 1
}

extension Client {
    /// Follows what the SDK just did with the OpenTok subscriber lifecycle (SUB-1..5): a
    /// publisher's join announces its stream, a subscription being attempted subscribes,
    /// `subscribed` starts media, a lost connection drops every subscriber's media and the
    /// reconnect restores it (or the stream is destroyed), the publisher's video going off or
    /// on disables or enables video (publisherPropertyChanged, `followPublisherMedia`), the
    /// subscription type sets the subscriber's own video
    /// property (subscriberPropertyChanged, `followSubscribeType`), and a leave destroys the
    /// stream (the subscription ending with it is the stream's end, not an unsubscribe). A
    /// publisher's interrupted connection drops its subscriber's media and its reconnect
    /// restores it (SUB-4 on the publisher's side).
    mutating func followSubscribers(_ output: Output, now: VirtualTime) -> [SubscriberTraceEvent] {
        guard !output.events.isEmpty || !output.messages.isEmpty || !output.remoteConnections.isEmpty else { return [] }
        var found: [SubscriberTraceEvent] = []
        for change in output.remoteConnections {
            switch change {
            case .interrupted(let id):
                guard let index = slotIndex(id), subscribers[index].state.phase == .connected else { continue }
                found += changeSlot(index) { $0.mediaDropped(at: now.nanoseconds) }
            case .reconnected(let id):
                guard let index = slotIndex(id), subscribers[index].state.phase == .reconnecting else { continue }
                found += changeSlot(index) { $0.mediaRestored(at: now.nanoseconds) }
            }
        }
        var reconnectedNow = false
        let leaving = Set(output.events.compactMap { event -> String? in
            if case .participantDidLeave(let info) = event, !info.isLocal { return info.participantId }
            return nil
        })
        for event in output.events {
            switch event {
            case .connectionStateChanged(.connecting, nil):
                for index in subscribers.indices where subscribers[index].state.phase == .connected {
                    found += changeSlot(index) { $0.mediaDropped(at: now.nanoseconds) }
                }
            case .connectionStateChanged(.connected, _):
                reconnectedNow = true
            case .connectionStateChanged(.disconnected, _):
                session.connectionEnded()
            case .participantDidJoin(let info) where !info.isLocal:
                found += announce(info)
            case .participantDidLeave(let info) where !info.isLocal:
                found += streamLeft(info.participantId)
            case .subscribeStateChanged(let info, .notSubscribed, _) where leaving.contains(info.participantId):
                continue
            default:
                found += follow(event, now: now)
            }
        }
        if reconnectedNow {
            // The reconnect asked the strategy again: a subscription it turned audio-only has
            // video off before its media comes back, so it reports no video on the way (RND-4).
            found += followSubscribeType()
            for index in subscribers.indices where subscribers[index].state.phase == .reconnecting {
                found += changeSlot(index) { $0.mediaRestored(at: now.nanoseconds) }
            }
            if Mutants.isOn(.reconnectWithoutDisconnect) {
                for index in subscribers.indices where subscribers[index].state.phase == .connected {
                    found += emit(index, [.subscriberDidReconnectToStream])
                }
            }
        }
        return found + followPublisherMedia() + followSubscribeType()
    }

    /// A publish told (a snapshot with streams, also one a reconnect restores, NET-3) brings its
    /// publisher's settings; new ones are learnt (`publisherPropertiesChanged`).
    mutating func learnProperties(of snapshot: PublisherSnapshot, into output: inout Output) {
        guard remoteProperties[snapshot.info.participantId] != snapshot.properties else { return }
        output.subscriberEvents += publisherPropertiesChanged(snapshot.properties, of: snapshot.info.participantId)
    }

    /// A publisher's publish brought settings this client did not hold (its first publish, or
    /// one with a video stream's own configuration, LST-3): it knows them from now on, and the
    /// stream of each of its subscribers has the new video size (SUB-7) and, if it has video
    /// layers, the new layers (LST-4), also a subscriber that has ended (the stream is the
    /// session's: subscribing to it again starts from it); returns the layer changes
    /// subscribers receiving video are told (SUB-8).
    mutating func publisherPropertiesChanged(_ properties: PublisherProperties, of publisherId: String) -> [SubscriberTraceEvent] {
        remoteProperties[publisherId] = properties
        let size = OpenTokStream.VideoDimensions(width: properties.widthPixels, height: properties.heightPixels)
        let layers = properties.openTokLayers
        var found: [SubscriberTraceEvent] = []
        for index in subscribers.indices where subscribers[index].publisherId == publisherId {
            let stream = subscribers[index].state.stream
            guard stream.videoDimensions != size || (!stream.layers.isEmpty && stream.layers != layers) else { continue }
            found += changeSlot(index) { $0.publisherVideoResized(to: size, layers: layers) }
        }
        return found
    }

    /// SUB-5 `publisherPropertyChanged`, "caused by the stream's publisher stopping the video
    /// stream": a subscriber's stream has video exactly while its publisher sends an unmuted
    /// video stream, whichever way the video stopped or came back: a video mute
    /// (publishVideo(false)) or a publish without the video track (the track ended). It
    /// follows the publisher, not the subscription: an audio-only subscriber is told too, and
    /// a change made before media flows is told at connect. Idempotent; besides the end of
    /// `followSubscribers`, `remotePublished` runs it, since a publisher's stream change may
    /// give this client no renderer event at all (its video was never added under audioOnly).
    /// SUB-7: the stream's `hasAudio` follows the publisher's audio the same way, untold.
    mutating func followPublisherMedia() -> [SubscriberTraceEvent] {
        var found: [SubscriberTraceEvent] = []
        for index in subscribers.indices where !subscribers[index].state.phase.isTerminal {
            // The remote's streams read in place: this runs for every subscriber at every step.
            guard let remote = view.index(of: subscribers[index].publisherId), view.remotes[remote].isPublishing else { continue }
            let published = view.remotes[remote].publishedStreams
            // Written only on a change: a write would copy a subscriber list shared with the
            // world this step started from (the model checker's parent state).
            let sendsAudio = Self.sendsUnmuted(.audio, in: published)
            if subscribers[index].state.stream.hasAudio != sendsAudio { subscribers[index].state.publisherAudioChanged(enabled: sendsAudio) }
            let sendsVideo = Self.sendsUnmuted(.video, in: published)
            guard subscribers[index].state.stream.hasVideo != sendsVideo else { continue }
            found += changeSlot(index) { $0.publisherVideoChanged(enabled: sendsVideo) }
        }
        return found
    }

    /// SUB-7: a stream "has audio" (`hasAudio`) or "has video" (`hasVideo`) while its
    /// publisher sends that kind unmuted. The seed words both properties alike; Vonage's
    /// guides say a publisher's `publishAudio` / `publishVideo` toggles turn them on and off.
    /// No subscriber event reports an audio change: the seed's subscriber vocabulary has none.
    static func sendsUnmuted(_ kind: MediaKind, in published: [StageStream]) -> Bool {
        published.contains { $0.kind == kind && !$0.isMuted }
    }

    /// RND-4 + SUB-5: `subscribeToVideo` follows the subscription the SDK holds. Under
    /// audioOnly it is off from the moment the subscription is asked for (so an audio-only
    /// subscriber never reports layers or quality, and is told once at connect that its own
    /// property keeps video off) and goes off at once on a downgrade; back under audioVideo it
    /// comes on when the video stream is added again (or at once while media is not flowing,
    /// or when the publisher sends no video).
    private mutating func followSubscribeType() -> [SubscriberTraceEvent] {
        var found: [SubscriberTraceEvent] = []
        for index in subscribers.indices where subscribers[index].isActive {
            // The remote and the subscriber read in place: this runs for every subscriber at
            // every step.
            guard let remote = view.index(of: subscribers[index].publisherId) else { continue }
            let (subscribeToVideo, phase) = (subscribers[index].state.subscribeToVideo, subscribers[index].state.phase)
            switch view.remotes[remote].requested {
            case .audioOnly where subscribeToVideo:
                if Mutants.isOn(.videoEventsUnderAudioOnly) && phase != .connected { continue }
                found += changeSlot(index) { $0.setSubscribeToVideo(false) }
            case .audioVideo where !subscribeToVideo:
                let videoBack = phase != .connected || view.remotes[remote].addedStreams.contains { $0.kind == .video }
                    || !view.remotes[remote].publishedStreams.contains { $0.kind == .video }
                if videoBack { found += changeSlot(index) { $0.setSubscribeToVideo(true) } }
            default:
                continue
            }
        }
        return found
    }

    private mutating func follow(_ event: RendererEvent, now: VirtualTime) -> [SubscriberTraceEvent] {
        guard let info = event.participant, !info.isLocal, let index = slotIndex(info.participantId) else { return [] }
        switch event {
        case .subscribeStateChanged(_, .attemptingSubscribe, _):
            if subscribers[index].state.phase == .unsubscribed { resubscribe(index) }
            return changeSlot(index) { $0.subscribe(at: now.nanoseconds) }
        case .subscribeStateChanged(_, .subscribed, _):
            return changeSlot(index) { $0.mediaStarted(at: now.nanoseconds) }
        case .subscribeStateChanged(_, .notSubscribed, _) where subscribers[index].isActive:
            return changeSlot(index) { $0.unsubscribe() }
        default:
            return []
        }
    }

    /// SUB-2, SUB-3: the app subscribes again to a stream it unsubscribed from: a new
    /// subscriber object for the same stream, with its own lifecycle (it connects when media
    /// starts again) and no preferences of its own yet (SUB-8). Its publisher's video is
    /// brought up to date by `followPublisherMedia` at the end of the step.
    private mutating func resubscribe(_ index: Int) {
        subscribers[index].state = SubscriberState(stream: subscribers[index].state.stream, mode: config.mediaMode)
        subscribers[index].subscriber += 1
    }

    /// SUB-1: a publisher's stream appears in the session; a new announcement of the same
    /// publisher is a new stream with a new subscriber. The stream's id is the stage service's
    /// (SUB-7), so a stream announced again after this client left and joined again keeps its
    /// id: its subscriber objects go on counting, the next one with a lifecycle of its own.
    private mutating func announce(_ info: ParticipantInfo) -> [SubscriberTraceEvent] {
        let previous = slotIndex(info.participantId).map { subscribers[$0] }
        let announcement = (previous?.announcement ?? 0) + 1
        let published = view[info.participantId]?.publishedStreams ?? []
        let video = published.first { $0.kind == .video }
        let properties = remoteProperties[info.participantId] ?? PublisherProperties()
        let stream = OpenTokStream(
            streamId: properties.streamId(of: info.participantId), sessionId: "session", connectionId: info.participantId,
            creationTime: properties.creationTimeNanoseconds, hasAudio: Self.sendsUnmuted(.audio, in: published), hasVideo: Self.sendsUnmuted(.video, in: published), name: info.userId,
            videoDimensions: OpenTokStream.VideoDimensions(width: properties.widthPixels, height: properties.heightPixels),
            videoType: properties.videoType, audioFallbackEnabled: properties.audioFallbackEnabled,
            layers: video == nil ? [] : properties.openTokLayers
        )
        var slot = SubscriberSlot(publisherId: info.participantId, announcement: announcement, state: SubscriberState(stream: stream, mode: config.mediaMode))
        if let previous, previous.state.stream.streamId == stream.streamId { slot.subscriber = previous.subscriber + 1 }
        if let index = slotIndex(info.participantId) {
            subscribers[index] = slot
        } else {
            subscribers.append(slot)
            subscribers.sort { $0.publisherId < $1.publisherId }
        }
        return session.streamAppeared(stream).map { SubscriberTraceEvent(publisherId: info.participantId, streamId: stream.streamId, event: $0, subscriber: slot.subscriber) }
    }

    /// SUB-3, SUB-4: the stream left. A subscriber that was reconnecting learns its stream
    /// cannot be restored; one that was connected sees it destroyed; otherwise the session
    /// reports it.
    private mutating func streamLeft(_ publisherId: String) -> [SubscriberTraceEvent] {
        guard let index = slotIndex(publisherId) else { return [] }
        let streamId = subscribers[index].state.stream.streamId
        let sessionEvents = session.streamLeft(streamId: streamId, reason: .clientDisconnected)
        switch subscribers[index].state.phase {
        case .reconnecting where Mutants.isOn(.bothReconnectAndDestroyed):
            return changeSlot(index) { $0.restoreFailed() + [.subscriberDidReconnectToStream] }
        case .reconnecting: return changeSlot(index) { $0.restoreFailed() }
        case .subscribing, .connected: return changeSlot(index) { $0.streamDestroyed(.clientDisconnected) }
        default:
            let subscriber = subscribers[index].subscriber
            return sessionEvents.map { SubscriberTraceEvent(publisherId: publisherId, streamId: streamId, event: $0, subscriber: subscriber) }
        }
    }

    /// SUB-5: the link towards this client, sampled at each keepalive ping, drives quality
    /// fallback of every connected subscriber (routed mode only, SUB-6 permitting). "Stream
    /// quality may change due to network conditions ... on either the subscriber or
    /// publisher": a subscriber's sample has this client's downlink bandwidth and the loss of
    /// the whole media path, the publisher's link (`publisherLoss`, by publisher id; asked only
    /// for connected subscribers) then this one.
    mutating func sampleLink(_ conditions: LinkConditions, now: VirtualTime, publisherLoss: (String) -> Double) -> [SubscriberTraceEvent] {
        var found: [SubscriberTraceEvent] = []
        let bandwidth = UInt64(max(conditions.downlinkBitsPerSecond, 0))
        for index in subscribers.indices where subscribers[index].state.phase == .connected {
            let loss = Self.pathLoss(conditions.lossProbability, publisherLoss(subscribers[index].publisherId))
            found += changeSlot(index) { state in
                state.linkQuality(bandwidthBitsPerSecond: bandwidth, lossRatio: loss, at: now.nanoseconds)
            }
        }
        return found
    }

    /// The loss of two links in a row; a loss-free link leaves the other's figure exact.
    static func pathLoss(_ first: Double, _ second: Double) -> Double {
        guard first != 0, second != 0 else { return first + second }
        return 1 - (1 - first) * (1 - second)
    }

    /// SUB-8: the subscriber's preferences pick the layer it receives.
    mutating func preferResolution(of publisherId: String, width: Int, height: Int) -> [SubscriberTraceEvent] {
        guard let index = slotIndex(publisherId) else { return [] }
        return changeSlot(index) { $0.setPreferredResolution(width: width, height: height) }
    }

    mutating func preferFrameRate(of publisherId: String, framesPerSecond: Int) -> [SubscriberTraceEvent] {
        guard let index = slotIndex(publisherId) else { return [] }
        return changeSlot(index) { $0.setPreferredFrameRate(Double(framesPerSecond)) }
    }

    private func slotIndex(_ publisherId: String) -> Int? { subscribers.firstIndex { $0.publisherId == publisherId } }

    /// Changes subscriber `index`'s state in place (no copy of the client or its slot) and
    /// returns the events the change caused, for the trace.
    private mutating func changeSlot(_ index: Int, _ body: (inout SubscriberState) -> [SubscriberEvent]) -> [SubscriberTraceEvent] {
        let events = body(&subscribers[index].state)
        return emit(index, events)
    }

    private func emit(_ index: Int, _ events: [SubscriberEvent]) -> [SubscriberTraceEvent] {
        guard !events.isEmpty else { return [] }
        let publisherId = subscribers[index].publisherId, streamId = subscribers[index].state.stream.streamId
        let subscriber = subscribers[index].subscriber
        return events.map { SubscriberTraceEvent(publisherId: publisherId, streamId: streamId, event: $0, subscriber: subscriber) }
    }
}
