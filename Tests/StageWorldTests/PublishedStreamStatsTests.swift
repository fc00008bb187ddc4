import Drivers
import Simulation
import StageCore
@testable import StageWorld
import SubscriberModel
import Testing

/// LST-5 for the local client's own stream: "To get statistics for a stream published by the
/// local client, you must use a session that uses the OpenTok Media Router" (routed mode).
@Suite("RTC stats of a published stream (LST-5)")
struct PublishedStreamStatsTests {
    private func world(mediaMode: OpenTokMediaMode, hostMutesAudio: Bool = false) -> World {
        var strategy = StrategySpec()
        strategy.publish = true
        let clients = ["host", "viewer"].map { name in
            ClientConfig(name: name, sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(signedToken(name)), strategy: strategy, mediaMode: mediaMode)
        }
        var link = LinkConditions()
        link.latencyMean = .milliseconds(30)
        link.lossProbability = 0.02
        var world = World(stageId: "stage-1", clients: clients, links: [:], defaultLink: link, seed: 1, keepalive: .off)
        for index in world.clients.indices { world.scheduleHostCall(.join, clientIndex: index, at: .zero) }
        if hostMutesAudio { world.scheduleHostCall(.setMuted(.audio, true), clientIndex: 0, at: .seconds(1)) }
        var simulator = Simulator(world: world, seed: 1)
        simulator.run(until: .seconds(3)) { _, _, _ in }
        return simulator.world
    }

    @Test("routed: the publisher gets outbound stats of its own audio and video from its uplink")
    func routedPublisherGetsOwnStats() throws {
        let world = world(mediaMode: .routed)
        let video = try #require(world.rtcStats(observer: "host", participant: "host", kind: .video)?["outbound-rtp-video"])
        #expect(video["layers"] == "low,high")
        #expect(video["frameHeight"] == "1280")
        #expect(video["roundTripTimeMs"] == "60.0")
        #expect(video["packetsLostRatio"] == "0.02")
        let audio = try #require(world.rtcStats(observer: "host", participant: "host", kind: .audio)?["outbound-rtp-audio"])
        #expect(audio["peakDb"] == "-6.0" && audio["rmsDb"] == "-18.0")
        #expect(world.rtcStats(observer: "viewer", participant: "host", kind: .video)?["inbound-rtp-video"] != nil)
    }

    @Test("a muted audio stream reports silence, -100 dB peak and rms, to its receiver and its publisher; unmuted it does not")
    func mutedAudioIsSilent() throws {
        let muted = world(mediaMode: .routed, hostMutesAudio: true)
        let inbound = try #require(muted.rtcStats(observer: "viewer", participant: "host", kind: .audio)?["inbound-rtp-audio"])
        #expect(inbound["peakDb"] == "-100.0" && inbound["rmsDb"] == "-100.0")
        let outbound = try #require(muted.rtcStats(observer: "host", participant: "host", kind: .audio)?["outbound-rtp-audio"])
        #expect(outbound["peakDb"] == "-100.0" && outbound["rmsDb"] == "-100.0")
        let unmuted = try #require(world(mediaMode: .routed).rtcStats(observer: "viewer", participant: "host", kind: .audio)?["inbound-rtp-audio"])
        #expect(unmuted["peakDb"] != "-100.0" && unmuted["rmsDb"] != "-100.0")
    }

    @Test("relayed: no stats for the local client's own stream; a received stream still has them")
    func relayedHasNoOwnStats() {
        let world = world(mediaMode: .relayed)
        #expect(world.rtcStats(observer: "host", participant: "host", kind: .video) == nil)
        #expect(world.rtcStats(observer: "viewer", participant: "host", kind: .video)?["inbound-rtp-video"] != nil)
    }
}
