import StageCore
import SubscriberModel

/// What subscribers learn of a publisher's video with its publish (SUB-6..8): whether its video
/// may be dropped for quality, its video type and size, frame rate, and the simulcast layers it
/// sends (from its video configuration, LST-4).
public struct PublisherProperties: Hashable, Sendable {
    public var audioFallbackEnabled: Bool
    public var videoType: OpenTokStream.VideoType
    public var widthPixels: Int
    public var heightPixels: Int
    public var framesPerSecond: Int
    public var layers: [SimulcastLayer]

    public init(
        audioFallbackEnabled: Bool = true, videoType: OpenTokStream.VideoType = .camera,
        video: VideoConfiguration = VideoConfiguration()
    ) {
        self.audioFallbackEnabled = audioFallbackEnabled
        self.videoType = videoType
        self.widthPixels = video.widthPixels
        self.heightPixels = video.heightPixels
        self.framesPerSecond = video.targetFramerateFramesPerSecond
        self.layers = video.layers
    }

    /// The layers as an OpenTok subscriber sees them: the layer's height at the publisher's
    /// aspect ratio and frame rate.
    var openTokLayers: [OpenTokStream.Layer] {
        layers.map { layer in
            let width = heightPixels == 0 ? layer.heightPixels : layer.heightPixels * widthPixels / heightPixels
            return OpenTokStream.Layer(width: width, height: layer.heightPixels, framesPerSecond: Double(framesPerSecond), bitsPerSecond: UInt64(max(layer.bitrateBitsPerSecond, 0)))
        }
    }
}
