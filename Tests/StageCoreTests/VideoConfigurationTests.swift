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

    /// LST-3's limits are closed ranges: "bitrate 100 kbps..2.5 Mbps, frame rate 10..30 fps, size
    /// up to 720p, minBitrate <= maxBitrate". Each end is a valid value, and the two bitrates
    /// may be equal, set in either order.
    @Test("the limits' ends are accepted, and minBitrate may equal maxBitrate")
    func limitsAreInclusive() throws {
        var config = VideoConfiguration()
        try config.setMaxBitrate(2_500_000)
        try config.setMinBitrate(100_000)
        try config.setTargetFramerate(10)
        try config.setTargetFramerate(30)
        try config.setSize(widthPixels: 1280, heightPixels: 720)
        try config.setSize(widthPixels: 720, heightPixels: 1280)
        #expect(throws: VideoConfigurationError.self) { try config.setMaxBitrate(2_500_001) }
        #expect(throws: VideoConfigurationError.self) { try config.setMinBitrate(99_999) }
        #expect(throws: VideoConfigurationError.self) { try config.setTargetFramerate(9) }
        #expect(throws: VideoConfigurationError.self) { try config.setTargetFramerate(31) }

        try config.setMaxBitrate(800_000)
        try config.setMinBitrate(800_000)
        #expect(config.minBitrateBitsPerSecond == 800_000 && config.maxBitrateBitsPerSecond == 800_000)
        var other = VideoConfiguration()
        try other.setMinBitrate(600_000)
        try other.setMaxBitrate(600_000)
        #expect(other.minBitrateBitsPerSecond == 600_000 && other.maxBitrateBitsPerSecond == 600_000)
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
        // LST-4: a downlink "cannot carry the high layer" only below its bitrate; at exactly a
        // layer's bitrate it carries that layer.
        #expect(config.layer(forDownlinkBitsPerSecond: 2_000_000).name == "high")
        #expect(config.layer(forDownlinkBitsPerSecond: 1_999_999).name == "low")
        #expect(config.layers.first?.bitrateBitsPerSecond == 500_000)
        #expect(config.layer(forDownlinkBitsPerSecond: 500_000).name == "low")
        config.simulcastEnabled = false
        #expect(config.layers.map(\.name) == ["high"])
        #expect(config.layer(forDownlinkBitsPerSecond: 800_000).name == "high")
    }

    @Test("a layer is as tall as its frames in the configured orientation, never its long side (LST-4)")
    func layerHeightsFollowOrientation() throws {
        var landscape = VideoConfiguration()
        try landscape.setSize(widthPixels: 1280, heightPixels: 720)
        #expect(landscape.layers.map(\.heightPixels) == [360, 720])
        var portrait = VideoConfiguration()
        try portrait.setSize(widthPixels: 360, heightPixels: 640)
        #expect(portrait.layers.map(\.heightPixels) == [320, 640])
        var square = VideoConfiguration()
        try square.setSize(widthPixels: 1, heightPixels: 1)
        #expect(square.layers.map(\.heightPixels) == [1, 1])
    }
}
