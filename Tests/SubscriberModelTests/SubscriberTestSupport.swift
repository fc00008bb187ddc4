import SubscriberModel

/// Shared fixtures for the SubscriberModel tests.
enum Fixture {
    static let second: UInt64 = 1_000_000_000
    static let millisecond: UInt64 = 1_000_000

    static let low = OpenTokStream.Layer(width: 320, height: 180, framesPerSecond: 15, bitsPerSecond: 150_000)
    static let mid = OpenTokStream.Layer(width: 640, height: 360, framesPerSecond: 30, bitsPerSecond: 600_000)
    static let high = OpenTokStream.Layer(width: 1280, height: 720, framesPerSecond: 30, bitsPerSecond: 1_500_000)
    static let midSlow = OpenTokStream.Layer(width: 640, height: 360, framesPerSecond: 15, bitsPerSecond: 400_000)

    static func stream(
        id: String = "stream-1",
        connection: String = "conn-pub",
        hasVideo: Bool = true,
        audioFallbackEnabled: Bool = true,
        layers: [OpenTokStream.Layer] = []
    ) -> OpenTokStream {
        OpenTokStream(
            streamId: id, sessionId: "session", connectionId: connection, creationTime: 5 * second,
            hasAudio: true, hasVideo: hasVideo, name: "publisher",
            videoDimensions: .init(width: 1280, height: 720), videoType: .camera,
            audioFallbackEnabled: audioFallbackEnabled, layers: layers)
    }

    /// A subscription that has subscribed at 0 and connected at 1 s; `events` dropped.
    static func connected(
        stream: OpenTokStream = Fixture.stream(),
        mode: OpenTokMediaMode = .routed,
        policy: QualityPolicy = .default
    ) -> SubscriberState {
        var state = SubscriberState(stream: stream, mode: mode, policy: policy)
        state.subscribe(at: 0)
        state.mediaStarted(at: second)
        return state
    }
}

/// Runs `events` through a fresh checker as one subscription and returns the violations.
func violations(of events: [SubscriberEvent], stream: OpenTokStream? = nil, mode: OpenTokMediaMode? = nil) -> [String] {
    var check = SubscriberEventOrderCheck()
    if let stream { check.begin(subscriptionId: "s", stream: stream, mode: mode) }
    for event in events { check.observe("s", event) }
    return check.violations
}
