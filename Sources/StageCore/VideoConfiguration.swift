/// The limits video configuration setters enforce (LST-3, *assumed*: configurable, with the
/// spec's defaults: bitrate 100 kbps..2.5 Mbps, 10..30 fps, at most 720p).
public struct VideoConfigurationLimits: Hashable, Sendable {
    public var bitrateRangeBitsPerSecond: ClosedRange<Int>
    public var frameRateRangeFramesPerSecond: ClosedRange<Int>
    /// The longer and shorter side of the largest frame (720p: 1280 x 720, either orientation).
    public var maximumLongSidePixels: Int
    public var maximumShortSidePixels: Int

    public init(
        bitrateRangeBitsPerSecond: ClosedRange<Int> = 100_000...2_500_000,
        frameRateRangeFramesPerSecond: ClosedRange<Int> = 10...30,
        maximumLongSidePixels: Int = 1280, maximumShortSidePixels: Int = 720
    ) {
        self.bitrateRangeBitsPerSecond = bitrateRangeBitsPerSecond
        self.frameRateRangeFramesPerSecond = frameRateRangeFramesPerSecond
        self.maximumLongSidePixels = maximumLongSidePixels
        self.maximumShortSidePixels = maximumShortSidePixels
    }
}

/// Why a video configuration setter refused a value (LST-3).
public struct VideoConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var setting: String
    public var message: String

    public init(setting: String, message: String) {
        self.setting = setting
        self.message = message
    }

    public var description: String { "\(setting): \(message)" }
}

/// How the encoder trades quality under constraint.
public enum DegradationPreference: String, Hashable, Sendable, CaseIterable {
    case balanced, maintainFramerate, maintainResolution
}

/// A simulcast layer a publisher sends and a subscriber may receive (LST-4).
public struct SimulcastLayer: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var name: String
    public var bitrateBitsPerSecond: Int
    public var heightPixels: Int

    public init(name: String, bitrateBitsPerSecond: Int, heightPixels: Int) {
        self.name = name
        self.bitrateBitsPerSecond = bitrateBitsPerSecond
        self.heightPixels = heightPixels
    }

    public static func < (lhs: SimulcastLayer, rhs: SimulcastLayer) -> Bool { lhs.bitrateBitsPerSecond < rhs.bitrateBitsPerSecond }

    public var description: String { "\(name)(\(heightPixels)p, \(bitrateBitsPerSecond / 1000) kbps)" }
}

/// IVSLocalStageStreamVideoConfiguration: bitrates, frame rate, size and degradation
/// preference, each setter validated against the limits (LST-3), plus simulcast (LST-4).
public struct VideoConfiguration: Hashable, Sendable {
    public let limits: VideoConfigurationLimits
    public private(set) var maxBitrateBitsPerSecond = 2_500_000
    public private(set) var minBitrateBitsPerSecond = 100_000
    public private(set) var targetFramerateFramesPerSecond = 30
    public private(set) var widthPixels = 720
    public private(set) var heightPixels = 1280
    public var degradationPreference = DegradationPreference.balanced
    /// Simulcast is on by default (LST-4).
    public var simulcastEnabled = true

    public init(limits: VideoConfigurationLimits = VideoConfigurationLimits()) { self.limits = limits }

    public mutating func setMaxBitrate(_ bitsPerSecond: Int) throws(VideoConfigurationError) {
        try checkBitrate("maxBitrate", bitsPerSecond)
        guard bitsPerSecond >= minBitrateBitsPerSecond else {
            throw VideoConfigurationError(setting: "maxBitrate", message: "\(bitsPerSecond) bps is below minBitrate \(minBitrateBitsPerSecond) bps")
        }
        maxBitrateBitsPerSecond = bitsPerSecond
    }

    public mutating func setMinBitrate(_ bitsPerSecond: Int) throws(VideoConfigurationError) {
        try checkBitrate("minBitrate", bitsPerSecond)
        guard bitsPerSecond <= maxBitrateBitsPerSecond else {
            throw VideoConfigurationError(setting: "minBitrate", message: "\(bitsPerSecond) bps is above maxBitrate \(maxBitrateBitsPerSecond) bps")
        }
        minBitrateBitsPerSecond = bitsPerSecond
    }

    public mutating func setTargetFramerate(_ framesPerSecond: Int) throws(VideoConfigurationError) {
        let range = limits.frameRateRangeFramesPerSecond
        guard range.contains(framesPerSecond) else {
            throw VideoConfigurationError(setting: "targetFramerate", message: "\(framesPerSecond) fps is outside \(range.lowerBound)...\(range.upperBound) fps")
        }
        targetFramerateFramesPerSecond = framesPerSecond
    }

    public mutating func setSize(widthPixels width: Int, heightPixels height: Int) throws(VideoConfigurationError) {
        let long = max(width, height)
        let short = min(width, height)
        guard short > 0, long <= limits.maximumLongSidePixels, short <= limits.maximumShortSidePixels else {
            throw VideoConfigurationError(setting: "size", message: "\(width)x\(height) is outside 1x1...\(limits.maximumShortSidePixels)x\(limits.maximumLongSidePixels) (720p, either orientation)")
        }
        widthPixels = width
        heightPixels = height
    }

    /// The layers this configuration publishes: with simulcast, high at maxBitrate and full
    /// size plus low at a quarter of it (never below minBitrate) and half height (at least one
    /// pixel); without, one. A layer's height is its frames' height in the configured
    /// orientation: 720 for a landscape 1280x720, 1280 for the default portrait 720x1280.
    public var layers: [SimulcastLayer] {
        let high = SimulcastLayer(name: "high", bitrateBitsPerSecond: maxBitrateBitsPerSecond, heightPixels: heightPixels)
        guard simulcastEnabled else { return [high] }
        let low = SimulcastLayer(name: "low", bitrateBitsPerSecond: max(minBitrateBitsPerSecond, maxBitrateBitsPerSecond / 4), heightPixels: max(heightPixels / 2, 1))
        return [low, high]
    }

    /// LST-4: the best layer a downlink of this capacity carries; the lowest when none fits.
    public func layer(forDownlinkBitsPerSecond capacity: Int) -> SimulcastLayer {
        let sorted = layers.sorted()
        return sorted.last(where: { $0.bitrateBitsPerSecond <= capacity }) ?? sorted[0]
    }

    private func checkBitrate(_ setting: String, _ bitsPerSecond: Int) throws(VideoConfigurationError) {
        let range = limits.bitrateRangeBitsPerSecond
        guard range.contains(bitsPerSecond) else {
            throw VideoConfigurationError(setting: setting, message: "\(bitsPerSecond) bps is outside \(range.lowerBound)...\(range.upperBound) bps")
        }
    }
}
