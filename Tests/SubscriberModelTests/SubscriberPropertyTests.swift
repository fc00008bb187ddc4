import Simulation
import Testing
import SubscriberModel

@Suite("Subscriber model property (SUB-2..SUB-6, SUB-8)")
struct SubscriberPropertyTests {
    private static let allLayers = [Fixture.low, Fixture.midSlow, Fixture.mid, Fixture.high]

    private static func randomInput(_ rng: inout SplitMix64, now: inout UInt64) -> SubscriberInput {
        // Mostly forward in time, sometimes backwards (must be ignored, not trapped).
        if rng.percentChance(5) {
            now = now >= Fixture.second ? now - rng.below(Fixture.second) : now
        } else {
            now &+= rng.below(2 * Fixture.second)
        }
        let bandwidths: [UInt64] = [0, 100_000, 200_000, 300_000, 700_000, 2_000_000, .max]
        let losses: [Double] = [0, 0.02, 0.05, 0.2, 1, .nan]
        let reason = rng.pick(StreamDestroyedReason.allCases) ?? .clientDisconnected
        let code = rng.pick(SubscriberError.Code.allCases) ?? .internalError
        switch rng.below(100) {
        case 0..<8: return .subscribe(at: now)
        case 8..<11: return .subscribeFailed(SubscriberError(code))
        case 11..<20: return .mediaStarted(at: now)
        case 20..<22: return .unsubscribe
        case 22..<24: return .streamDestroyed(reason)
        case 24..<32: return .mediaDropped(at: now)
        case 32..<40: return .mediaRestored(at: now)
        case 40..<43: return .restoreFailed
        case 43..<50: return .publisherVideoChanged(enabled: rng.percentChance(50))
        case 50..<57: return .setSubscribeToVideo(rng.percentChance(50))
        case 57..<88:
            return .linkQuality(bandwidthBitsPerSecond: rng.pick(bandwidths) ?? 0, lossRatio: rng.pick(losses) ?? 0, at: now)
        case 88..<94:
            let sizes = [(0, 0), (320, 180), (640, 360), (1280, 720), (-1, 5), (10, 0)]
            let size = rng.pick(sizes) ?? (0, 0)
            return .setPreferredResolution(width: size.0, height: size.1)
        default:
            return .setPreferredFrameRate(rng.pick([0, 7.5, 15, 30, -1, .nan, .infinity]) ?? 0)
        }
    }

    @Test("SUB-2..6, SUB-8: 2,000 random input sequences never crash and never break the event order check")
    func randomSequences() {
        var rng = SplitMix64(seed: 0x5AB_0001)
        var seen: [String: Int] = [:]
        var ignoredCount = 0
        for sequence in 0..<2_000 {
            let layers = Self.allLayers.filter { _ in rng.percentChance(50) }
            let stream = Fixture.stream(
                id: "stream-\(sequence)", hasVideo: rng.percentChance(80),
                audioFallbackEnabled: rng.percentChance(70), layers: layers)
            let mode: OpenTokMediaMode = rng.percentChance(75) ? .routed : .relayed
            let policy = QualityPolicy(
                disableAfterNanoseconds: rng.below(4) * Fixture.second,
                enableAfterNanoseconds: rng.below(3) * Fixture.second)
            var state = SubscriberState(stream: stream, mode: mode, policy: policy, subscribeToVideo: rng.percentChance(85))
            var check = SubscriberEventOrderCheck()
            let id = "sub-\(sequence)"
            check.begin(subscriptionId: id, stream: stream, mode: mode)
            var now: UInt64 = 0
            let length = 1 + rng.below(60)
            for _ in 0..<length {
                let input = Self.randomInput(&rng, now: &now)
                let before = state
                let step = state.apply(input)
                if let why = step.ignored {
                    ignoredCount += 1
                    #expect(step.events.isEmpty, "ignored input \(input) still sent \(step.events)")
                    #expect(!why.isEmpty)
                    #expect(state.phase == before.phase && state.quality == before.quality
                        && state.announcedVideoDisabled == before.announcedVideoDisabled
                        && state.preferences == before.preferences && state.lastTime == before.lastTime,
                        "ignored input \(input) changed the state")
                }
                if before.phase.isTerminal {
                    #expect(step.events.isEmpty)
                }
                for event in step.events {
                    seen[event.name, default: 0] += 1
                    let found = check.observe(id, event)
                    #expect(found.isEmpty, "sequence \(sequence): \(found)")
                }
                // Model-level invariants alongside the event order.
                if state.phase == .connected {
                    #expect(Set(state.videoDisabledReasons) == state.announcedVideoDisabled)
                    #expect(!state.subscribeToVideo || state.announcedLayer == state.receivedLayer)
                }
                if !state.qualityFallbackApplies {
                    #expect(state.quality.stage == .good)
                }
            }
            if check.violations.count > 0 { break }
        }
        // The generator must actually reach every interesting event, or the property says little.
        for name in [
            "subscriberDidConnectToStream", "subscriberDidFailWithError", "subscriberDidDisconnectFromStream",
            "subscriberDidReconnectToStream", "streamDestroyed", "subscriberVideoDisabled", "subscriberVideoEnabled",
            "subscriberVideoDisableWarning", "subscriberVideoDisableWarningLifted", "subscriberVideoLayerChanged",
        ] {
            #expect((seen[name] ?? 0) > 0, "the random sequences never produced \(name)")
        }
        #expect(ignoredCount > 0)
    }

    @Test("SUB-5/SUB-6: random sequences reach qualityChanged disables, but never without audio fallback or in relayed mode")
    func qualityDisablesOnlyWhereAllowed() {
        var rng = SplitMix64(seed: 42)
        var qualityDisables = 0
        for sequence in 0..<500 {
            let stream = Fixture.stream(id: "q-\(sequence)", audioFallbackEnabled: rng.percentChance(50), layers: [Fixture.low, Fixture.mid])
            let mode: OpenTokMediaMode = rng.percentChance(50) ? .routed : .relayed
            var state = SubscriberState(stream: stream, mode: mode)
            state.subscribe(at: 0)
            state.mediaStarted(at: 0)
            var now: UInt64 = 0
            for _ in 0..<40 {
                now += rng.below(2 * Fixture.second)
                let events = state.linkQuality(
                    bandwidthBitsPerSecond: rng.percentChance(50) ? 50_000 : 1_000_000, lossRatio: rng.percentChance(20) ? 0.5 : 0, at: now)
                if events.contains(.subscriberVideoDisabled(reason: .qualityChanged)) {
                    qualityDisables += 1
                    #expect(mode == .routed && stream.audioFallbackEnabled)
                }
            }
        }
        #expect(qualityDisables > 0)
    }
}
