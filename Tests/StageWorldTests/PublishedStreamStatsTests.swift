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
    private func world(mediaMode: OpenTokMediaMode, hostMutesAudio: Bool = false, ownVideo: VideoConfiguration? = nil) -> World {
        var strategy = StrategySpec()
        strategy.publish = true
        if let ownVideo { strategy.streams = [LocalStream(kind: .audio), LocalStream(kind: .video, video: ownVideo)] }
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

    @Test("a video stream with its own configuration (LST-3): both ends' stats describe what it publishes")
    func ownConfigurationInStats() throws {
        var video = VideoConfiguration()
        try video.setMaxBitrate(900_000)
        try video.setSize(widthPixels: 360, heightPixels: 640)
        try video.setTargetFramerate(15)
        video.simulcastEnabled = false
        let world = world(mediaMode: .routed, ownVideo: video)
        let outbound = try #require(world.rtcStats(observer: "host", participant: "host", kind: .video)?["outbound-rtp-video"])
        #expect(outbound["layers"] == "high")
        #expect(outbound["frameHeight"] == "640")
        #expect(outbound["bitrateBitsPerSecond"] == "900000")
        #expect(outbound["framesPerSecond"] == "15")
        let inbound = try #require(world.rtcStats(observer: "viewer", participant: "host", kind: .video)?["inbound-rtp-video"])
        #expect(inbound["frameHeight"] == "640" && inbound["framesPerSecond"] == "15")
        let viewer = try #require(world.clientIndex(named: "viewer"))
        #expect(world.clients[viewer].remoteProperties["host"]?.widthPixels == 360)
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

    /// LST-5 for a received stream: its media crosses the publisher's uplink and the
    /// receiver's downlink, so the round trip, the jitter and the loss it reports are those of
    /// both links together (`World.rtcStats`), not of the receiver's link alone. The two links
    /// here differ in every figure, so a figure read from one link only is wrong.
    @Test("a received stream's round trip, jitter and loss come from both links")
    func receivedStatsAddBothLinks() throws {
        var strategy = StrategySpec()
        strategy.publish = true
        let clients = ["host", "viewer"].map { name in
            ClientConfig(name: name, sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(signedToken(name)), strategy: strategy, mediaMode: .routed)
        }
        var hostLink = LinkConditions(latencyMean: .milliseconds(30), jitterMax: .milliseconds(40))
        hostLink.lossProbability = 0.1
        var viewerLink = LinkConditions(latencyMean: .milliseconds(50), jitterMax: .milliseconds(10))
        viewerLink.lossProbability = 0.2
        var world = World(stageId: "stage-1", clients: clients, links: ["host": hostLink, "viewer": viewerLink],
                          defaultLink: LinkConditions(), seed: 1, keepalive: .off)
        for index in world.clients.indices { world.scheduleHostCall(.join, clientIndex: index, at: .zero) }
        var simulator = Simulator(world: world, seed: 1)
        simulator.run(until: .seconds(10)) { _, _, _ in }
        for kind in [MediaKind.video, .audio] {
            let stats = try #require(simulator.world.rtcStats(observer: "viewer", participant: "host", kind: kind)?["inbound-rtp-\(kind.rawValue)"])
            #expect(stats["roundTripTimeMs"] == "160.0", "(30 + 50) ms one way, twice")
            #expect(stats["jitterMs"] == "25.0", "uniform jitter up to 40 and 10 ms: means 20 + 5 ms")
            let lost = try #require(Double(stats["packetsLostRatio"] ?? ""))
            #expect(abs(lost - 0.28) < 1e-9, "1 - 0.9 x 0.8")
        }
    }
}
