import Testing
import SubscriberModel

@Suite("Video disable reasons (SUB-5)")
struct SubscriberVideoTests {
    let s = Fixture.second

    @Test("SUB-5: publisher turns video off/on -> disabled/enabled(publisherPropertyChanged); audio continues")
    func publisherPropertyChanged() {
        var state = Fixture.connected()
        #expect(state.publisherVideoChanged(enabled: false) == [.subscriberVideoDisabled(reason: .publisherPropertyChanged)])
        #expect(!state.isVideoReceived)
        #expect(state.isAudioReceived)
        #expect(state.videoDisabledReasons == [.publisherPropertyChanged])
        #expect(state.publisherVideoChanged(enabled: true) == [.subscriberVideoEnabled(reason: .publisherPropertyChanged)])
        #expect(state.isVideoReceived)
    }

    @Test("SUB-5: subscribeToVideo off/on -> disabled/enabled(subscriberPropertyChanged); audio continues")
    func subscriberPropertyChanged() {
        var state = Fixture.connected()
        #expect(state.setSubscribeToVideo(false) == [.subscriberVideoDisabled(reason: .subscriberPropertyChanged)])
        #expect(state.subscribeToVideo == false)
        #expect(!state.isVideoReceived && state.isAudioReceived)
        #expect(state.setSubscribeToVideo(true) == [.subscriberVideoEnabled(reason: .subscriberPropertyChanged)])
        #expect(state.isVideoReceived)
    }

    @Test("SUB-5: qualityChanged disables after a warning and re-enables on recovery; audio continues")
    func qualityChanged() {
        var state = Fixture.connected(stream: Fixture.stream(layers: [Fixture.low, Fixture.high]))
        #expect(state.linkQuality(bandwidthBitsPerSecond: 50_000, lossRatio: 0, at: 2 * s).contains(.subscriberVideoDisableWarning))
        #expect(state.linkQuality(bandwidthBitsPerSecond: 50_000, lossRatio: 0, at: 5 * s).contains(.subscriberVideoDisabled(reason: .qualityChanged)))
        #expect(state.isAudioReceived && !state.isVideoReceived)
        state.linkQuality(bandwidthBitsPerSecond: 5_000_000, lossRatio: 0, at: 6 * s)
        #expect(state.linkQuality(bandwidthBitsPerSecond: 5_000_000, lossRatio: 0, at: 8 * s).contains(.subscriberVideoEnabled(reason: .qualityChanged)))
        #expect(state.isVideoReceived)
    }

    @Test("SUB-5: a change to the same value is ignored and reported")
    func noOpChangeIgnored() {
        var state = Fixture.connected()
        #expect(state.setSubscribeToVideo(true) == [])
        #expect(state.lastIgnored != nil)
        #expect(state.publisherVideoChanged(enabled: true) == [])
        #expect(state.lastIgnored != nil)
    }

    @Test("SUB-5: overlapping causes are announced and lifted each with its own reason")
    func overlappingCauses() {
        var state = Fixture.connected()
        #expect(state.publisherVideoChanged(enabled: false) == [.subscriberVideoDisabled(reason: .publisherPropertyChanged)])
        #expect(state.setSubscribeToVideo(false) == [.subscriberVideoDisabled(reason: .subscriberPropertyChanged)])
        #expect(state.publisherVideoChanged(enabled: true) == [.subscriberVideoEnabled(reason: .publisherPropertyChanged)])
        #expect(!state.isVideoReceived)
        #expect(state.setSubscribeToVideo(true) == [.subscriberVideoEnabled(reason: .subscriberPropertyChanged)])
        #expect(state.isVideoReceived)
    }

    @Test("SUB-5: a change while reconnecting is announced right after subscriberDidReconnectToStream")
    func changeWhileReconnecting() {
        var state = Fixture.connected()
        state.mediaDropped(at: 2 * s)
        #expect(state.setSubscribeToVideo(false) == [])
        #expect(state.lastIgnored == nil)
        #expect(state.mediaRestored(at: 3 * s)
            == [.subscriberDidReconnectToStream, .subscriberVideoDisabled(reason: .subscriberPropertyChanged)])
    }

    @Test("SUB-5: changes that cancel out while media is down announce nothing")
    func cancellingChanges() {
        var state = Fixture.connected()
        state.mediaDropped(at: 2 * s)
        state.publisherVideoChanged(enabled: false)
        state.publisherVideoChanged(enabled: true)
        #expect(state.mediaRestored(at: 3 * s) == [.subscriberDidReconnectToStream])
    }

    @Test("SUB-5: video off before media starts is announced after subscriberDidConnectToStream")
    func offBeforeConnect() {
        var state = SubscriberState(stream: Fixture.stream(hasVideo: false))
        state.subscribe(at: 0)
        #expect(state.setSubscribeToVideo(false) == [])
        #expect(state.mediaStarted(at: s) == [
            .subscriberDidConnectToStream,
            .subscriberVideoDisabled(reason: .publisherPropertyChanged),
            .subscriberVideoDisabled(reason: .subscriberPropertyChanged),
        ])
        #expect(state.isAudioReceived)
    }

    @Test("RND-4 + SUB-5: with subscribeToVideo off, no layer change and no quality event; back on, the layer is reported")
    func noVideoReportsWhileNotSubscribingToVideo() {
        var state = SubscriberState(stream: Fixture.stream(layers: [Fixture.low, Fixture.mid]), subscribeToVideo: false)
        state.subscribe(at: 0)
        var events = state.mediaStarted(at: s)
        #expect(events == [.subscriberDidConnectToStream, .subscriberVideoDisabled(reason: .subscriberPropertyChanged)])
        events += state.linkQuality(bandwidthBitsPerSecond: 0, lossRatio: 0.5, at: 2 * s)
        events += state.linkQuality(bandwidthBitsPerSecond: 0, lossRatio: 0.5, at: 9 * s)
        events += state.setPreferredResolution(width: 320, height: 180)
        #expect(events.count == 2)
        #expect(state.quality.stage == .good)
        #expect(state.isAudioReceived && !state.isVideoReceived)
        let back = state.setSubscribeToVideo(true)
        #expect(back == [.subscriberVideoEnabled(reason: .subscriberPropertyChanged), .subscriberVideoLayerChanged(Fixture.low)])
        #expect(violations(of: events + back, stream: state.stream, mode: .routed) == [])
    }

    @Test("RND-4 + SUB-5: the order check flags a layer or quality report while subscriberPropertyChanged keeps video off")
    func orderCheckFlagsVideoReportsWhileOff() {
        let off: [SubscriberEvent] = [.subscriberDidConnectToStream, .subscriberVideoDisabled(reason: .subscriberPropertyChanged)]
        #expect(violations(of: off + [.subscriberVideoLayerChanged(Fixture.low)]).count == 1)
        #expect(violations(of: off + [.subscriberVideoDisableWarning]).count == 1)
        #expect(violations(of: off + [.subscriberVideoEnabled(reason: .subscriberPropertyChanged), .subscriberVideoLayerChanged(Fixture.low)]) == [])
    }

    @Test("SUB-5: every reason's disable/enable trace passes the order check")
    func reasonsTraceClean() {
        var state = Fixture.connected(stream: Fixture.stream(layers: [Fixture.low]))
        var events = [SubscriberEvent.subscriberDidConnectToStream, .subscriberVideoLayerChanged(Fixture.low)]
        events += state.publisherVideoChanged(enabled: false)
        events += state.linkQuality(bandwidthBitsPerSecond: 0, lossRatio: 0, at: 2 * s)
        events += state.linkQuality(bandwidthBitsPerSecond: 0, lossRatio: 0, at: 6 * s)
        events += state.setSubscribeToVideo(false)
        events += state.publisherVideoChanged(enabled: true)
        events += state.setSubscribeToVideo(true)
        events += state.linkQuality(bandwidthBitsPerSecond: 10_000_000, lossRatio: 0, at: 7 * s)
        events += state.linkQuality(bandwidthBitsPerSecond: 10_000_000, lossRatio: 0, at: 10 * s)
        for reason in SubscriberVideoEventReason.allCases {
            #expect(events.contains(.subscriberVideoDisabled(reason: reason)))
            #expect(events.contains(.subscriberVideoEnabled(reason: reason)))
        }
        #expect(violations(of: events, stream: state.stream, mode: .routed) == [])
    }
}
