import Testing
import SubscriberModel

@Suite("Quality fallback (SUB-5 qualityChanged, SUB-6, routed/relayed)")
struct QualityFallbackTests {
    let s = Fixture.second
    let ms = Fixture.millisecond
    /// Lowest layer needs 150 kbit/s: default policy degrades below 150k, recovers at >= 225k.
    let layered = Fixture.stream(layers: [Fixture.low, Fixture.mid])

    private func sample(_ state: inout SubscriberState, _ bandwidth: UInt64, loss: Double = 0, at: UInt64) -> [SubscriberEvent] {
        state.linkQuality(bandwidthBitsPerSecond: bandwidth, lossRatio: loss, at: at)
            .filter { if case .subscriberVideoLayerChanged = $0 { false } else { true } }
    }

    @Test("SUB-5 routed: a degraded link warns first, then disables after the persistence time")
    func warnThenDisable() {
        var state = Fixture.connected(stream: layered)
        #expect(sample(&state, 100_000, at: 2 * s) == [.subscriberVideoDisableWarning])
        #expect(sample(&state, 100_000, at: 4 * s) == [])
        #expect(sample(&state, 100_000, at: 5 * s - 1) == [])
        #expect(state.quality.isWarned)
        #expect(sample(&state, 100_000, at: 5 * s) == [.subscriberVideoDisabled(reason: .qualityChanged)])
        #expect(state.quality.isDisabled)
        #expect(state.videoDisabledReasons == [.qualityChanged])
        #expect(state.isAudioReceived)
        #expect(sample(&state, 100_000, at: 20 * s) == [])
    }

    @Test("SUB-5 routed: loss above the threshold degrades too")
    func lossDegrades() {
        var state = Fixture.connected(stream: layered)
        #expect(sample(&state, 10_000_000, loss: 0.2, at: 2 * s) == [.subscriberVideoDisableWarning])
        #expect(sample(&state, 10_000_000, loss: 0.2, at: 5 * s) == [.subscriberVideoDisabled(reason: .qualityChanged)])
    }

    @Test("SUB-5 routed: a recovered sample lifts the warning; an in-between sample keeps it (hysteresis)")
    func warningLifted() {
        var state = Fixture.connected(stream: layered)
        sample(&state, 100_000, at: 2 * s)
        #expect(sample(&state, 200_000, at: 3 * s) == [])  // between 150k and 225k
        #expect(state.quality.isWarned)
        #expect(sample(&state, 200_000, loss: 0.05, at: 3 * s) == [])  // loss between 3% and 10%
        #expect(sample(&state, 225_000, at: 4 * s) == [.subscriberVideoDisableWarningLifted])
        #expect(state.quality.stage == .good)
        #expect(sample(&state, 200_000, at: 5 * s) == [])
    }

    @Test("SUB-5 routed: disabled video resumes only after recovery holds for the enable time, with hysteresis")
    func recoveryWithHysteresis() {
        var state = Fixture.connected(stream: layered)
        sample(&state, 0, at: 1 * s)
        sample(&state, 0, at: 4 * s)
        #expect(state.quality.isDisabled)
        #expect(sample(&state, 200_000, at: 5 * s) == [])  // above degrade, below recover: stays off
        #expect(sample(&state, 1_000_000, at: 6 * s) == [])  // recovery starts
        #expect(sample(&state, 1_000_000, at: 7 * s) == [])
        #expect(sample(&state, 200_000, at: 7 * s + 500 * ms) == [])  // recovery interrupted
        #expect(sample(&state, 1_000_000, at: 8 * s) == [])  // restarts at 8 s
        #expect(sample(&state, 1_000_000, at: 10 * s - 1) == [])
        #expect(sample(&state, 1_000_000, at: 10 * s) == [.subscriberVideoEnabled(reason: .qualityChanged)])
        #expect(state.isVideoReceived)
    }

    @Test("SUB-6: a publisher with audioFallbackEnabled = false never gets a quality warning or disable")
    func noAudioFallback() {
        var state = Fixture.connected(stream: Fixture.stream(audioFallbackEnabled: false, layers: [Fixture.low]))
        #expect(!state.qualityFallbackApplies)
        var events: [SubscriberEvent] = []
        for second in 2...60 {
            events += sample(&state, 0, loss: 0.9, at: UInt64(second) * s)
        }
        #expect(events == [])
        #expect(state.isVideoReceived)
    }

    @Test("SUB-5: a relayed session never disables video for quality")
    func relayedNeverFallsBack() {
        var state = Fixture.connected(stream: layered, mode: .relayed)
        #expect(!state.qualityFallbackApplies)
        var events: [SubscriberEvent] = []
        for second in 2...60 {
            events += sample(&state, 0, loss: 0.9, at: UInt64(second) * s)
        }
        #expect(events == [])
        #expect(state.isVideoReceived)
    }

    @Test("SUB-5: link samples are ignored while media is down")
    func samplesWhileReconnecting() {
        var state = Fixture.connected(stream: layered)
        state.mediaDropped(at: 2 * s)
        #expect(state.linkQuality(bandwidthBitsPerSecond: 0, lossRatio: 1, at: 3 * s) == [])
        #expect(state.lastIgnored != nil)
        #expect(state.quality.stage == .good)
    }

    @Test("SUB-5: thresholds and times come from QualityPolicy")
    func configurablePolicy() {
        let policy = QualityPolicy(
            degradeLossRatio: 0.5, recoverLossRatio: 0.4, degradeBandwidthFactor: 2, recoverBandwidthFactor: 3,
            disableAfterNanoseconds: 0, enableAfterNanoseconds: 0, minimumVideoBitsPerSecond: 1_000)
        var state = Fixture.connected(stream: Fixture.stream(), policy: policy)  // no layers: 1 kbit/s
        #expect(state.lowestLayerBitsPerSecond == 1_000)
        #expect(sample(&state, 1_999, at: 2 * s) == [.subscriberVideoDisableWarning])
        #expect(sample(&state, 1_999, at: 2 * s) == [.subscriberVideoDisabled(reason: .qualityChanged)])
        #expect(sample(&state, 2_500, at: 3 * s) == [])
        #expect(sample(&state, 3_000, loss: 0.4, at: 3 * s) == [.subscriberVideoEnabled(reason: .qualityChanged)])
        #expect(sample(&state, 10_000, loss: 0.45, at: 4 * s) == [])
        #expect(sample(&state, 10_000, loss: 0.51, at: 4 * s) == [.subscriberVideoDisableWarning])
    }

    @Test("SUB-5: the default policy's assumed numbers")
    func defaults() {
        let policy = QualityPolicy.default
        #expect(policy.degradeLossRatio == 0.10)
        #expect(policy.recoverLossRatio == 0.03)
        #expect(policy.degradeBandwidthFactor == 1.0)
        #expect(policy.recoverBandwidthFactor == 1.5)
        #expect(policy.disableAfterNanoseconds == 3 * s)
        #expect(policy.enableAfterNanoseconds == 2 * s)
        #expect(policy.minimumVideoBitsPerSecond == 150_000)
    }

    @Test("SUB-5: sample classification, including NaN loss which never counts as recovered")
    func classify() {
        let policy = QualityPolicy.default
        #expect(policy.classify(bandwidthBitsPerSecond: 149_999, lossRatio: 0, lowestBitsPerSecond: 150_000) == .degraded)
        #expect(policy.classify(bandwidthBitsPerSecond: 150_000, lossRatio: 0, lowestBitsPerSecond: 150_000) == .between)
        #expect(policy.classify(bandwidthBitsPerSecond: 225_000, lossRatio: 0.03, lowestBitsPerSecond: 150_000) == .recovered)
        #expect(policy.classify(bandwidthBitsPerSecond: 225_000, lossRatio: 0.11, lowestBitsPerSecond: 150_000) == .degraded)
        #expect(policy.classify(bandwidthBitsPerSecond: 10_000_000, lossRatio: .nan, lowestBitsPerSecond: 150_000) == .between)
    }

    @Test("SUB-5/SUB-8: the quality threshold is the stream's lowest layer bitrate")
    func lowestLayerThreshold() {
        let state = Fixture.connected(stream: Fixture.stream(layers: [Fixture.high, Fixture.midSlow]))
        #expect(state.lowestLayerBitsPerSecond == 400_000)
    }

    @Test("SUB-5: the routed warning/disable/recover trace passes the order check")
    func traceClean() {
        var state = Fixture.connected(stream: layered)
        var events: [SubscriberEvent] = [.subscriberDidConnectToStream]
        for (bandwidth, t) in [(0, 1), (0, 2), (0, 5), (500_000, 6), (500_000, 9), (0, 10), (500_000, 11)] as [(UInt64, UInt64)] {
            events += sample(&state, bandwidth, at: t * s)
        }
        #expect(events.contains(.subscriberVideoDisabled(reason: .qualityChanged)))
        #expect(events.contains(.subscriberVideoEnabled(reason: .qualityChanged)))
        #expect(events.contains(.subscriberVideoDisableWarningLifted))
        #expect(violations(of: events, stream: layered, mode: .routed) == [])
    }
}
