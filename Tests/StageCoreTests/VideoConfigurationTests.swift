import Testing
@testable import StageCore

@Suite("Video configuration (LST-3, LST-4)")
struct VideoConfigurationTests {
    @Test("setters accept values inside the limits")
    func accepts() throws {
        var config = VideoConfiguration()
        try config.setMaxBitrate(900_000)
        try config.setMinBitrate(100_000)
        try config.setTargetFramerate(30)
        try config.setSize(widthPixels: 360, heightPixels: 640)
        #expect(config.maxBitrateBitsPerSecond == 900_000)
        #expect(config.widthPixels == 360)
    }

    @Test("setters reject values outside the limits with a clear error and change nothing")
    func rejects() {
        var config = VideoConfiguration()
        #expect(throws: VideoConfigurationError(setting: "maxBitrate", message: "3000000 bps is outside 100000...2500000 bps")) {
            try config.setMaxBitrate(3_000_000)
        }
        #expect(throws: VideoConfigurationError.self) { try config.setTargetFramerate(60) }
        #expect(throws: VideoConfigurationError.self) { try config.setSize(widthPixels: 1920, heightPixels: 1080) }
        #expect(throws: VideoConfigurationError.self) { try config.setSize(widthPixels: 0, heightPixels: 10) }
        #expect(throws: VideoConfigurationError.self, "the short side over 720 with the long side within 1280") {
            try config.setSize(widthPixels: 1000, heightPixels: 1280)
        }
        #expect(config == VideoConfiguration())
    }

    @Test("minBitrate can never exceed maxBitrate")
    func minBelowMax() throws {
        var config = VideoConfiguration()
        try config.setMaxBitrate(500_000)
        #expect(throws: VideoConfigurationError.self) { try config.setMinBitrate(600_000) }
        try config.setMinBitrate(400_000)
        #expect(throws: VideoConfigurationError.self) { try config.setMaxBitrate(300_000) }
    }

    @Test("limits are configurable")
    func customLimits() throws {
        var config = VideoConfiguration(limits: VideoConfigurationLimits(frameRateRangeFramesPerSecond: 5...60))
        try config.setTargetFramerate(60)
        #expect(config.targetFramerateFramesPerSecond == 60)
    }

    @Test("simulcast sends two layers by default; the downlink picks the best that fits")
    func simulcastLayers() throws {
        var config = VideoConfiguration()
        try config.setMaxBitrate(2_000_000)
        #expect(config.layers.map(\.name) == ["low", "high"])
        #expect(config.layer(forDownlinkBitsPerSecond: 10_000_000).name == "high")
        #expect(config.layer(forDownlinkBitsPerSecond: 800_000).name == "low")
        #expect(config.layer(forDownlinkBitsPerSecond: 10_000).name == "low")
        config.simulcastEnabled = false
        #expect(config.layers.map(\.name) == ["high"])
        #expect(config.layer(forDownlinkBitsPerSecond: 800_000).name == "high")
    }
}
