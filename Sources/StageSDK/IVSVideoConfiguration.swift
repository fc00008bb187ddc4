import Foundation
import StageCore

/// The SDK's `IVSLocalStageStreamVideoConfiguration` as the IVS page writes it (LST-3, LST-4): an
/// object, so `let config = IVSLocalStageStreamVideoConfiguration()` takes `try config.setMaxBitrate(900_000)`,
/// `try config.setSize(CGSize(width: 360, height: 640))`, `config.degradationPreference = .balanced`
/// and `config.simulcast.enabled = false`, and is handed to
/// `IVSLocalStageStream(device: camera, configuration: config)`.
///
/// It holds a `VideoConfiguration` value (`configuration`), whose setters validate each value
/// against its limits and throw `VideoConfigurationError` (bitrate 100 kbps..2.5 Mbps,
/// minBitrate <= maxBitrate, 10..30 fps, at most 720p in either orientation); a refused value
/// changes nothing. The world never holds this object: a stream copies its value when created.
public final class IVSLocalStageStreamVideoConfiguration {
    /// The configuration as a value, as `Stage.videoConfiguration` and scenario files take it.
    public private(set) var configuration: VideoConfiguration

    /// A configuration with the defaults (2.5 Mbps max, 100 kbps min, 30 fps, 720x1280,
    /// balanced, simulcast on), or a copy of `configuration`.
    public init(_ configuration: VideoConfiguration = VideoConfiguration()) {
        self.configuration = configuration
    }

    public func setMaxBitrate(_ bitsPerSecond: Int) throws(VideoConfigurationError) {
        try configuration.setMaxBitrate(bitsPerSecond)
    }

    public func setMinBitrate(_ bitsPerSecond: Int) throws(VideoConfigurationError) {
        try configuration.setMinBitrate(bitsPerSecond)
    }

    public func setTargetFramerate(_ framesPerSecond: Int) throws(VideoConfigurationError) {
        try configuration.setTargetFramerate(framesPerSecond)
    }

    /// The frame size in whole pixels; a fractional, negative or non-finite side is refused.
    public func setSize(_ size: CGSize) throws(VideoConfigurationError) {
        guard let width = Int(exactly: Double(size.width)), let height = Int(exactly: Double(size.height)) else {
            throw VideoConfigurationError(setting: "size", message: "\(size.width)x\(size.height) is not a whole number of pixels")
        }
        try configuration.setSize(widthPixels: width, heightPixels: height)
    }

    public var degradationPreference: DegradationPreference {
        get { configuration.degradationPreference }
        set { configuration.degradationPreference = newValue }
    }

    /// LST-4: simulcast, on by default; `config.simulcast.enabled = false` turns it off.
    public var simulcast: IVSSimulcastConfiguration {
        get { IVSSimulcastConfiguration(enabled: configuration.simulcastEnabled) }
        set { configuration.simulcastEnabled = newValue.enabled }
    }
}

/// The SDK's `IVSSimulcastConfiguration` (LST-4): whether a video stream sends high and low
/// layers ("Layered encoding with simulcast is on by default").
public struct IVSSimulcastConfiguration: Hashable, Sendable {
    public var enabled: Bool

    public init(enabled: Bool = true) { self.enabled = enabled }
}
