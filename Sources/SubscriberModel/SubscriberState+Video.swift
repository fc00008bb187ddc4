// SUB-5 video disable / enable causes, SUB-5/SUB-6 quality fallback, SUB-8 layer announcements.
extension SubscriberState {
    /// SUB-5 `publisherPropertyChanged`: the publisher's video goes off or on.
    mutating func publisherVideoStep(enabled: Bool) -> SubscriberStep {
        guard stream.hasVideo != enabled else {
            return .ignoring("publisherVideoChanged ignored: publisher video already \(enabled ? "on" : "off")")
        }
        stream.hasVideo = enabled
        return SubscriberStep(events: announcePending())
    }

    /// SUB-5 `subscriberPropertyChanged`: the app changes `subscribeToVideo`.
    mutating func subscribeToVideoStep(_ enabled: Bool) -> SubscriberStep {
        guard subscribeToVideo != enabled else {
            return .ignoring("setSubscribeToVideo ignored: subscribeToVideo already \(enabled)")
        }
        subscribeToVideo = enabled
        return SubscriberStep(events: announcePending())
    }

    /// SUB-5 `qualityChanged`, SUB-6, SUB-8: a link sample while media flows. It always
    /// updates the bandwidth used for layer choice; it drives quality fallback only in routed
    /// mode for a publisher with `audioFallbackEnabled`, and only while the subscriber asks
    /// for video (an audio-only subscriber has no video to fall back from, RND-4).
    mutating func linkQualityStep(bandwidth: UInt64, loss: Double, at: UInt64) -> SubscriberStep {
        guard phase == .connected else { return ignoredInPhase("linkQuality", expected: "connected") }
        bandwidthBitsPerSecond = bandwidth
        var events: [SubscriberEvent] = []
        if qualityFallbackApplies && subscribeToVideo {
            let verdict = policy.classify(
                bandwidthBitsPerSecond: bandwidth, lossRatio: loss, lowestBitsPerSecond: lowestLayerBitsPerSecond)
            // Warnings come from the fallback stage itself; disable / enable are announced
            // with the other causes below, so the announced set stays the single truth.
            events += quality.sample(verdict, at: at, policy: policy).filter { event in
                event == .subscriberVideoDisableWarning || event == .subscriberVideoDisableWarningLifted
            }
        }
        return SubscriberStep(events: events + announcePending())
    }

    /// While media flows, tells the app every video-disable cause that started or ended since
    /// it was last told, then the received layer if it changed and the subscriber asks for
    /// video (RND-4: no layer reports under `subscribeToVideo = false`). Sends nothing otherwise.
    mutating func announcePending() -> [SubscriberEvent] {
        guard phase == .connected else { return [] }
        var events: [SubscriberEvent] = []
        // Each cause read once; the announced set is read by walking its members, not asked
        // per cause (a lookup hashes the cause's name): this runs at every link sample of
        // every subscriber.
        let announced = announcedVideoDisabled
        for reason in SubscriberVideoEventReason.allCases {
            let active = isVideoDisabled(by: reason)
            guard active != announced.contains(where: { $0 == reason }) else { continue }
            if active {
                announcedVideoDisabled.insert(reason)
                events.append(.subscriberVideoDisabled(reason: reason))
            } else {
                announcedVideoDisabled.remove(reason)
                events.append(.subscriberVideoEnabled(reason: reason))
            }
        }
        let layer = receivedLayer
        if subscribeToVideo && layer != announcedLayer {
            announcedLayer = layer
            events.append(.subscriberVideoLayerChanged(layer))
        }
        return events
    }
}
