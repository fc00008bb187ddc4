import Testing
import SubscriberModel

@Suite("Subscriber lifecycle (SUB-2, SUB-3, SUB-4)")
struct SubscriberLifecycleTests {
    let s = Fixture.second
    let stream = Fixture.stream()

    @Test("SUB-2: subscribe sends nothing; subscriberDidConnectToStream when media starts")
    func connectWhenMediaStarts() {
        var state = SubscriberState(stream: stream)
        #expect(state.phase == .idle)
        #expect(state.subscribe(at: 0) == [])
        #expect(state.phase == .subscribing)
        #expect(state.subscribedAt == 0)
        #expect(state.mediaStarted(at: 2 * s) == [.subscriberDidConnectToStream])
        #expect(state.phase == .connected)
        #expect(state.connectedAt == 2 * s)
        #expect(state.isVideoReceived && state.isAudioReceived)
    }

    @Test("SUB-2: media before subscribe, or a second connect, is ignored and reported")
    func mediaOutOfPlace() {
        var state = SubscriberState(stream: stream)
        #expect(state.mediaStarted(at: 0) == [])
        #expect(state.lastIgnored?.contains("idle") == true)
        state.subscribe(at: 0)
        state.mediaStarted(at: s)
        #expect(state.mediaStarted(at: 2 * s) == [])
        #expect(state.lastIgnored != nil)
        #expect(state.phase == .connected)
    }

    @Test("SUB-2: subscribe may fail with an error; the subscription is over")
    func subscribeFails() {
        var state = SubscriberState(stream: stream)
        state.subscribe(at: 0)
        let error = SubscriberError(.streamLimitExceeded, message: "too many")
        #expect(state.subscribeFailed(error) == [.subscriberDidFailWithError(error)])
        #expect(state.phase == .failed)
        #expect(state.mediaStarted(at: s) == [])
        #expect(state.lastIgnored?.contains("over") == true)
    }

    @Test("SUB-2: a failure is only reported while subscribing")
    func failureOnlyWhileSubscribing() {
        var state = Fixture.connected()
        #expect(state.subscribeFailed(SubscriberError(.mediaError)) == [])
        #expect(state.phase == .connected)
        #expect(state.lastIgnored != nil)
    }

    @Test("SUB-3: unsubscribe disconnects without a callback; nothing follows")
    func unsubscribe() {
        var state = Fixture.connected()
        #expect(state.unsubscribe() == [])
        #expect(state.phase == .unsubscribed)
        #expect(state.lastIgnored == nil)
        #expect(state.mediaDropped(at: 3 * s) == [])
        #expect(state.streamDestroyed(.clientDisconnected) == [])
        #expect(state.publisherVideoChanged(enabled: false) == [])
        #expect(!state.isAudioReceived)
    }

    @Test("SUB-3: unsubscribe before subscribing is ignored")
    func unsubscribeIdle() {
        var state = SubscriberState(stream: stream)
        #expect(state.unsubscribe() == [])
        #expect(state.phase == .idle)
        #expect(state.lastIgnored != nil)
    }

    @Test("SUB-3: streamDestroyed when the stream leaves, carrying the stream and reason; nothing after")
    func streamLeaves() {
        var state = Fixture.connected(stream: stream)
        #expect(state.streamDestroyed(.clientDisconnected) == [.streamDestroyed(stream, reason: .clientDisconnected)])
        #expect(state.phase == .streamDestroyed)
        #expect(state.streamDestroyed(.clientDisconnected) == [])
        #expect(state.mediaRestored(at: 9 * s) == [])
    }

    @Test("SUB-4: drop sends subscriberDidDisconnectFromStream, restore sends subscriberDidReconnectToStream")
    func dropAndReconnect() {
        var state = Fixture.connected()
        #expect(state.mediaDropped(at: 3 * s) == [.subscriberDidDisconnectFromStream])
        #expect(state.phase == .reconnecting)
        #expect(state.disconnectedAt == 3 * s)
        #expect(!state.isAudioReceived && !state.isVideoReceived)
        #expect(state.mediaRestored(at: 4 * s) == [.subscriberDidReconnectToStream])
        #expect(state.phase == .connected)
        #expect(state.connectedAt == 4 * s)
    }

    @Test("SUB-4: a drop that cannot be restored ends with streamDestroyed, never also a reconnect")
    func restoreFails() {
        var state = Fixture.connected(stream: stream)
        state.mediaDropped(at: 3 * s)
        #expect(state.restoreFailed() == [.streamDestroyed(stream, reason: .networkDisconnected)])
        #expect(state.mediaRestored(at: 4 * s) == [])
        #expect(state.lastIgnored != nil)
        #expect(state.phase == .streamDestroyed)
    }

    @Test("SUB-4: a stream that leaves while reconnecting resolves the drop with streamDestroyed only")
    func streamLeavesWhileReconnecting() {
        var state = Fixture.connected(stream: stream)
        state.mediaDropped(at: 3 * s)
        #expect(state.streamDestroyed(.networkDisconnected) == [.streamDestroyed(stream, reason: .networkDisconnected)])
        #expect(state.mediaRestored(at: 4 * s) == [])
        #expect(state.restoreFailed() == [])
    }

    @Test("SUB-4: never a reconnect without a prior disconnect")
    func noReconnectWithoutDisconnect() {
        var state = Fixture.connected()
        #expect(state.mediaRestored(at: 2 * s) == [])
        #expect(state.lastIgnored?.contains("reconnecting") == true)
        #expect(state.restoreFailed() == [])
        #expect(state.phase == .connected)
        var fresh = SubscriberState(stream: stream)
        fresh.subscribe(at: 0)
        #expect(fresh.mediaDropped(at: s) == [])
        #expect(fresh.mediaRestored(at: s) == [])
    }

    @Test("SUB-4: one reconnect per disconnect; a second drop while reconnecting is ignored")
    func oneReconnectPerDisconnect() {
        var state = Fixture.connected()
        state.mediaDropped(at: 2 * s)
        #expect(state.mediaDropped(at: 3 * s) == [])
        #expect(state.mediaRestored(at: 4 * s) == [.subscriberDidReconnectToStream])
        #expect(state.mediaRestored(at: 5 * s) == [])
        #expect(state.mediaDropped(at: 6 * s) == [.subscriberDidDisconnectFromStream])
        #expect(state.mediaRestored(at: 7 * s) == [.subscriberDidReconnectToStream])
    }

    @Test("SUB-2..4: an input whose time runs backwards is ignored, not trapped")
    func timeBackwards() {
        var state = SubscriberState(stream: stream)
        state.subscribe(at: 5 * s)
        let step = state.apply(.mediaStarted(at: 4 * s))
        #expect(step.events == [])
        #expect(step.ignored?.contains("before") == true)
        #expect(state.phase == .subscribing)
        #expect(state.apply(.mediaStarted(at: 5 * s)).events == [.subscriberDidConnectToStream])
    }

    @Test("SUB-2..4: apply reports why an input was ignored; accepted inputs report nil")
    func applyReports() {
        var state = SubscriberState(stream: stream)
        #expect(state.apply(.restoreFailed).ignored != nil)
        #expect(state.apply(.subscribe(at: 0)) == SubscriberStep(events: [], ignored: nil))
        #expect(state.lastIgnored == nil)
    }

    @Test("SUB-2..4: a full drop/reconnect trace passes the order check")
    func fullTraceIsClean() {
        var state = SubscriberState(stream: stream)
        var events: [SubscriberEvent] = []
        events += state.subscribe(at: 0)
        events += state.mediaStarted(at: s)
        events += state.mediaDropped(at: 2 * s)
        events += state.mediaRestored(at: 3 * s)
        events += state.mediaDropped(at: 4 * s)
        events += state.restoreFailed()
        #expect(events == [
            .subscriberDidConnectToStream, .subscriberDidDisconnectFromStream, .subscriberDidReconnectToStream,
            .subscriberDidDisconnectFromStream, .streamDestroyed(stream, reason: .networkDisconnected),
        ])
        #expect(violations(of: events, stream: stream) == [])
    }
}
