import Testing
import SubscriberModel

@Suite("Subscriber event order check (SUB-2..SUB-6)")
struct SubscriberEventOrderCheckTests {
    let stream = Fixture.stream()
    let connect = SubscriberEvent.subscriberDidConnectToStream
    let disconnect = SubscriberEvent.subscriberDidDisconnectFromStream
    let reconnect = SubscriberEvent.subscriberDidReconnectToStream
    var destroyed: SubscriberEvent { .streamDestroyed(stream, reason: .networkDisconnected) }

    private func expectOne(_ events: [SubscriberEvent], rule: String, stream: OpenTokStream? = nil, mode: OpenTokMediaMode? = nil,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let found = violations(of: events, stream: stream, mode: mode)
        #expect(found.count == 1, "\(found)", sourceLocation: sourceLocation)
        #expect(found.first?.hasPrefix(rule) == true, "\(found)", sourceLocation: sourceLocation)
    }

    @Test("SUB-4: a well-formed drop/reconnect and drop/destroy trace has no violation")
    func cleanTrace() {
        #expect(violations(of: [connect, disconnect, reconnect, disconnect, reconnect, disconnect, destroyed]) == [])
    }

    @Test("SUB-4: the checker flags a reconnect without a prior disconnect")
    func reconnectWithoutDisconnect() {
        expectOne([connect, reconnect], rule: "SUB-4")
    }

    @Test("SUB-4: the checker flags a second reconnect for one disconnect")
    func twoReconnects() {
        expectOne([connect, disconnect, reconnect, reconnect], rule: "SUB-4")
    }

    @Test("SUB-4: the checker flags reconnect and streamDestroyed for the same disconnect (never both)")
    func neverBoth() {
        expectOne([connect, disconnect, destroyed, reconnect], rule: "SUB-4")
    }

    @Test("SUB-4: the checker flags disconnect or reconnect before connect")
    func beforeConnect() {
        expectOne([disconnect], rule: "SUB-4")
        let found = violations(of: [reconnect])
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.hasPrefix("SUB-4") })
    }

    @Test("SUB-4: the checker flags a second disconnect while one is unresolved")
    func doubleDisconnect() {
        expectOne([connect, disconnect, disconnect], rule: "SUB-4")
    }

    @Test("SUB-4: an unresolved disconnect at the end is listed, not a violation")
    func openDisconnectListed() {
        var check = SubscriberEventOrderCheck()
        check.observe("a", connect)
        check.observe("a", disconnect)
        check.observe("b", connect)
        #expect(check.violations == [])
        #expect(check.openDisconnects == ["a"])
        check.observe("a", reconnect)
        #expect(check.openDisconnects == [])
    }

    @Test("SUB-2: the checker flags a second connect and a connect after failure")
    func connectRules() {
        expectOne([connect, connect], rule: "SUB-2")
        expectOne([.subscriberDidFailWithError(SubscriberError(.timedOut)), connect], rule: "SUB-2")
    }

    @Test("SUB-3: the checker flags anything after streamDestroyed")
    func nothingAfterDestroyed() {
        expectOne([connect, destroyed, .subscriberVideoDisabled(reason: .publisherPropertyChanged)], rule: "SUB-3")
        expectOne([destroyed, destroyed], rule: "SUB-3")
    }

    @Test("SUB-5: the checker flags videoEnabled without a videoDisabled of the same reason")
    func enableNeedsMatchingDisable() {
        expectOne([connect, .subscriberVideoEnabled(reason: .publisherPropertyChanged)], rule: "SUB-5")
        expectOne([connect, .subscriberVideoDisabled(reason: .subscriberPropertyChanged),
                   .subscriberVideoEnabled(reason: .publisherPropertyChanged)], rule: "SUB-5")
        expectOne([connect, .subscriberVideoDisabled(reason: .publisherPropertyChanged),
                   .subscriberVideoDisabled(reason: .publisherPropertyChanged)], rule: "SUB-5")
        #expect(violations(of: [connect, .subscriberVideoDisabled(reason: .subscriberPropertyChanged),
                                .subscriberVideoEnabled(reason: .subscriberPropertyChanged)]) == [])
    }

    @Test("SUB-5: the checker flags a qualityChanged disable without a warning, and a lift without a warning")
    func warningRules() {
        expectOne([connect, .subscriberVideoDisabled(reason: .qualityChanged)], rule: "SUB-5")
        expectOne([connect, .subscriberVideoDisableWarningLifted], rule: "SUB-5")
        expectOne([connect, .subscriberVideoDisableWarning, .subscriberVideoDisableWarning], rule: "SUB-5")
        #expect(violations(of: [connect, .subscriberVideoDisableWarning, .subscriberVideoDisabled(reason: .qualityChanged),
                                .subscriberVideoEnabled(reason: .qualityChanged)]) == [])
    }

    @Test("SUB-5: the checker flags a qualityChanged disable in a relayed session")
    func relayedQualityDisable() {
        expectOne([connect, .subscriberVideoDisableWarning, .subscriberVideoDisabled(reason: .qualityChanged)],
                  rule: "SUB-5", stream: stream, mode: .relayed)
    }

    @Test("SUB-6: the checker flags a qualityChanged disable when audioFallbackEnabled is false")
    func noAudioFallbackDisable() {
        let optedOut = Fixture.stream(audioFallbackEnabled: false)
        let events: [SubscriberEvent] = [connect, .subscriberVideoDisableWarning, .subscriberVideoDisabled(reason: .qualityChanged)]
        expectOne(events, rule: "SUB-6", stream: optedOut)
        // Learnt from a streamCreated event too.
        expectOne([.streamCreated(optedOut)] + events, rule: "SUB-6")
        #expect(violations(of: events, stream: stream) == [])
    }

    @Test("SUB-4: subscriptions are checked independently")
    func independentSubscriptions() {
        var check = SubscriberEventOrderCheck()
        check.observe("a", connect)
        check.observe("a", disconnect)
        #expect(check.observe("b", reconnect).count == 2)
        #expect(check.observe("a", reconnect) == [])
        #expect(check.violations.count == 2)
    }
}
