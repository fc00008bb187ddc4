import StageCore
import SubscriberModel

/// What subscribers learn of a publisher's video with its publish (SUB-6..8): whether its video
/// may be dropped for quality, its video type and size, frame rate, the simulcast layers it
/// sends (from its video configuration, LST-4), and when the stage service created the stream.
public struct PublisherProperties: Hashable, Sendable {
    /// SUB-7 `creationTime`, virtual nanoseconds: stamped by the stage service when the publish
    /// starts, kept through stream changes and a reconnect it kept the publisher for (SUB-4).
    public var creationTimeNanoseconds: UInt64 = 0
    /// SUB-7 `streamId` ("The unique ID for the stream"): the stage service numbers each
    /// participant's streams 1, 2, 3, ... as it creates them, never reusing a number on the
    /// stage, and keeps the number as `creationTimeNanoseconds` is kept. With the participant id
    /// it makes the stream's id, `<participant id>-<number>`, the same at every client. 0 for a
    /// participant that has no stream.
    public var streamNumber = 0
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

    /// These properties for the stream numbered `streamNumber` that the service created at
    /// `nanoseconds` (SUB-7).
    func created(at nanoseconds: UInt64, streamNumber: Int) -> PublisherProperties {
        var stamped = self
        stamped.creationTimeNanoseconds = nanoseconds
        stamped.streamNumber = streamNumber
        return stamped
    }

    /// SUB-7: the id of the stream these properties describe, for the publisher `participantId`.
    func streamId(of participantId: String) -> String { "\(participantId)-\(streamNumber)" }

    /// The layers as an OpenTok subscriber sees them: the layer's height at the publisher's
    /// aspect ratio and frame rate. Decoding keeps wire values within `WireLimits`, where
    /// nothing here can overflow; for any other values (the Swift API's own configuration) a
    /// width that does not fit an `Int` saturates, and a non-positive size keeps the layer's
    /// height as its width.
    var openTokLayers: [OpenTokStream.Layer] {
        layers.map { layer in
            OpenTokStream.Layer(
                width: width(ofLayerHeight: layer.heightPixels), height: layer.heightPixels,
                framesPerSecond: Double(framesPerSecond), bitsPerSecond: UInt64(max(layer.bitrateBitsPerSecond, 0))
            )
        }
    }

    /// `layerHeight * widthPixels / heightPixels`, without trapping.
    private func width(ofLayerHeight layerHeight: Int) -> Int {
        guard layerHeight > 0, widthPixels > 0, heightPixels > 0 else { return layerHeight }
        let (product, overflow) = layerHeight.multipliedReportingOverflow(by: widthPixels)
        if !overflow { return product / heightPixels }
        return Int(exactly: (Double(layerHeight) * Double(widthPixels) / Double(heightPixels)).rounded(.towardZero)) ?? .max
    }
}
