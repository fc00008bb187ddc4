/// A stream in an OpenTok session as a subscriber sees it (SUB-7), with the publisher-side
/// settings that shape the subscriber's lifecycle: `audioFallbackEnabled` (SUB-6) and the
/// scalable-video layers the Media Router can forward (SUB-8). Ownership is decided by
/// comparing `connectionId` with the observing session's own connection id (SUB-1).
///
/// The seed also lists a `session` property: it is modelled as `sessionId`.
public struct OpenTokStream: Sendable, Hashable {
    /// The unique ID of the stream.
    public var streamId: String
    /// The OpenTok session the stream is bound to (seed: `session`).
    public var sessionId: String
    /// The id of the connection publishing the stream (seed: `connection`).
    public var connectionId: String
    /// Creation time of the stream, virtual nanoseconds.
    public var creationTime: UInt64
    public var hasAudio: Bool
    /// Whether the publisher currently sends video; `publisherVideoChanged(enabled:)` updates it.
    public var hasVideo: Bool
    /// The name set when the publisher was initialised.
    public var name: String
    /// The current dimensions of the video track.
    public var videoDimensions: VideoDimensions
    public var videoType: VideoType
    /// Publisher setting (SUB-6): `false` means the stream's video is never disabled for quality.
    public var audioFallbackEnabled: Bool
    /// Simulcast / scalable layers the publisher sends (SUB-8). Empty: not a scalable stream.
    public var layers: [Layer]

    public init(
        streamId: String,
        sessionId: String = "session",
        connectionId: String,
        creationTime: UInt64 = 0,
        hasAudio: Bool = true,
        hasVideo: Bool = true,
        name: String = "",
        videoDimensions: VideoDimensions = VideoDimensions(width: 640, height: 480),
        videoType: VideoType = .camera,
        audioFallbackEnabled: Bool = true,
        layers: [Layer] = []
    ) {
        self.streamId = streamId
        self.sessionId = sessionId
        self.connectionId = connectionId
        self.creationTime = creationTime
        self.hasAudio = hasAudio
        self.hasVideo = hasVideo
        self.name = name
        self.videoDimensions = videoDimensions
        self.videoType = videoType
        self.audioFallbackEnabled = audioFallbackEnabled
        self.layers = layers
    }

    /// Width and height of a video track in pixels (SUB-7 `videoDimensions`).
    public struct VideoDimensions: Sendable, Hashable {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The stream's video source (SUB-7 `videoType`): OTStreamVideoTypeCamera / Screen / Custom.
    public enum VideoType: String, Sendable, Hashable, CaseIterable {
        case camera, screen, custom
    }

    /// One simulcast / scalable video layer (SUB-8): resolution, frame rate and bitrate.
    public struct Layer: Sendable, Hashable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public var framesPerSecond: Double
        public var bitsPerSecond: UInt64

        public init(width: Int, height: Int, framesPerSecond: Double, bitsPerSecond: UInt64) {
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
            self.bitsPerSecond = bitsPerSecond
        }

        public var description: String { "\(width)x\(height)@\(framesPerSecond)fps/\(bitsPerSecond)bps" }
    }
}
