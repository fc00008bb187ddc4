import StageCore
import StageSDK
import StageWorld
import Testing

/// LST-3, LST-4 through the Swift API: the IVS page's configuration example and its simulcast
/// switch ("Layered encoding with simulcast is on by default. You can disable it").
@Suite("A stage's video configuration (LST-3, LST-4)")
struct StageVideoConfigurationTests {
    @Test("the seed's example configuration publishes; simulcast sends two layers by default and one when disabled")
    func seedConfigurationAndSimulcast() throws {
        let simulation = StageSimulation(seed: 9, stageId: "demo")
        let layeredStage = try addStage("layered", to: simulation)
        let singleStage = try addStage("single", to: simulation)
        let viewer = try addStage("viewer", to: simulation)
        var config = VideoConfiguration()
        try config.setMaxBitrate(900_000)
        try config.setMinBitrate(100_000)
        try config.setTargetFramerate(30)
        try config.setSize(widthPixels: 360, heightPixels: 640)
        config.degradationPreference = .balanced
        layeredStage.stage.videoConfiguration = config
        config.simulcastEnabled = false
        singleStage.stage.videoConfiguration = config
        for stage in [layeredStage.stage, singleStage.stage, viewer.stage] { try stage.join() }
        try simulation.run(for: .seconds(3))

        let index = try #require(simulation.world.clientIndex(named: "viewer"))
        let slots = simulation.world.clients[index].subscribers
        let layered = try #require(slots.first { $0.publisherId == "layered" }).state.stream.layers
        let single = try #require(slots.first { $0.publisherId == "single" }).state.stream.layers
        #expect(layered.count == 2)
        #expect(layered.map { $0.bitsPerSecond }.max() == 900_000)
        #expect(single.count == 1)
        #expect(VideoConfiguration().simulcastEnabled)
        #expect(viewer.renderer.events.contains { event in
            if case .added(let id, _) = event { return id == "single" }
            return false
        })
        #expect(simulation.violations.isEmpty)
    }

    @Test("requestRTCStats: statistics for a publishing stream and for a subscribing stream (LST-5)")
    func statsOfPublishedAndReceivedStreams() throws {
        let simulation = StageSimulation(seed: 9, stageId: "demo")
        let host = try addStage("host", to: simulation)
        let viewer = try addStage("viewer", to: simulation)
        try host.stage.join()
        try viewer.stage.join()
        try simulation.run(for: .seconds(3))
        let received = try #require(viewer.stage.requestRTCStats(for: StageStream(participantId: "host", kind: .video)))
        #expect(received["inbound-rtp-video"]?["layer"] == "high")
        let audio = try #require(viewer.stage.requestRTCStats(for: StageStream(participantId: "host", kind: .audio)))
        #expect(audio["inbound-rtp-audio"]?["peakDb"] != nil && audio["inbound-rtp-audio"]?["rmsDb"] != nil)
        #expect(host.stage.requestRTCStats(for: StageStream(participantId: "host", kind: .video)) != nil)
        #expect(viewer.stage.requestRTCStats(for: StageStream(participantId: "nobody", kind: .video)) == nil)
    }
}
