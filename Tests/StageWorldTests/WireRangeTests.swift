import StageCore
import Testing
@testable import StageWorld

/// Issue 13, point 1: every number a frame carries is range-checked when the frame is decoded,
/// so a bad value is a protocol error (SIG-8) and nothing downstream can overflow.
@Suite("Numbers from the wire are range-checked (SIG-8)")
struct WireRangeTests {
    /// Publisher video descriptions with one number outside its limit (or not a plain number).
    static let outOfRangeVideo: [[String]] = [
        [Fixture.videoLine, "a=x-stagesim-layer:h 1 9223372036854775807"],
        [Fixture.videoLine, "a=x-stagesim-layer:h 9223372036854775807 720"],
        [Fixture.videoLine, "a=x-stagesim-layer:h 99999999999999999999 720"],
        [Fixture.videoLine, "a=x-stagesim-layer:h 1000000001 720"],
        [Fixture.videoLine, "a=x-stagesim-layer:h 0 720"],
        [Fixture.videoLine, "a=x-stagesim-layer:h -5 720"],
        [Fixture.videoLine, "a=x-stagesim-layer:h +5 720"],
        [Fixture.videoLine, "a=x-stagesim-layer:h 500000 0"],
        [Fixture.videoLine, "a=x-stagesim-layer:h 500000 8193"],
        [Fixture.videoLine, "a=x-stagesim-layer:h 500000 -720"],
        ["a=x-stagesim-video:fallback=true type=camera size=9223372036854775807x1 fps=30"] + Fixture.layerLines,
        ["a=x-stagesim-video:fallback=true type=camera size=720x0 fps=30"] + Fixture.layerLines,
        ["a=x-stagesim-video:fallback=true type=camera size=0x1280 fps=30"] + Fixture.layerLines,
        ["a=x-stagesim-video:fallback=true type=camera size=8193x1280 fps=30"] + Fixture.layerLines,
        ["a=x-stagesim-video:fallback=true type=camera size=-720x1280 fps=30"] + Fixture.layerLines,
        ["a=x-stagesim-video:fallback=true type=camera size=720x1280 fps=0"] + Fixture.layerLines,
        ["a=x-stagesim-video:fallback=true type=camera size=720x1280 fps=241"] + Fixture.layerLines,
        ["a=x-stagesim-video:fallback=true type=camera size=720x1280 fps=-30"] + Fixture.layerLines,
        [Fixture.videoLine],
        [Fixture.videoLine] + Fixture.layerLines + ["a=x-stagesim-layer:mid 900000 720", "a=x-stagesim-layer:top 2000000 1080"],
    ]

    @Test("a publisher whose video description has a number outside its limit is a protocol error", arguments: outOfRangeVideo)
    func outOfRangeVideoIsRefused(lines: [String]) {
        let frame = Fixture.published(Fixture.publisher(videoSDP: Fixture.videoSDP(lines)))
        if case .success(let message) = decodedAtClient(frame) {
            Issue.record("decoded as \(message.summary): \(lines)")
        }
    }

    /// Publisher video descriptions that say one thing twice: a second video line (even an
    /// identical one), or a layer named twice. No frame the model sends has either, so only
    /// this test sees a reader that lets the later line win.
    static let repeatedVideo: [[String]] = [
        [Fixture.videoLine, Fixture.videoLine] + Fixture.layerLines,
        [Fixture.videoLine, "a=x-stagesim-video:fallback=false type=screen size=1280x720 fps=15"] + Fixture.layerLines,
        [Fixture.videoLine] + Fixture.layerLines + [Fixture.layerLines[0]],
    ]

    @Test("a publisher whose video description repeats its video line or a layer is a protocol error (SIG-8)", arguments: repeatedVideo)
    func repeatedVideoIsRefused(lines: [String]) {
        let frame = Fixture.published(Fixture.publisher(videoSDP: Fixture.videoSDP(lines)))
        if case .success(let message) = decodedAtClient(frame) {
            Issue.record("decoded as \(message.summary): \(lines)")
        }
    }

    @Test("a negative stream creation time is a protocol error, not a clamp to zero")
    func negativeCreationTime() {
        if case .success(let message) = decodedAtClient(Fixture.published(Fixture.publisher(created: "-1"))) {
            Issue.record("decoded as \(message.summary)")
        }
    }

    @Test("the limits themselves are accepted: 1 bps..1 Gbps, 1..8192 px, 1..240 fps, 1..3 layers")
    func limitsAccepted() throws {
        let lines = [
            "a=x-stagesim-video:fallback=false type=screen size=8192x1 fps=240",
            "a=x-stagesim-layer:a 1 1", "a=x-stagesim-layer:b 1000000000 8192", "a=x-stagesim-layer:c 5 5",
        ]
        let frame = Fixture.published(Fixture.publisher(videoSDP: Fixture.videoSDP(lines), created: "9223372036854775807"))
        guard case .participantPublished(let snapshot) = try decodedAtClient(frame).get() else {
            Issue.record("not a participantPublished")
            return
        }
        #expect(snapshot.properties.widthPixels == 8192 && snapshot.properties.heightPixels == 1 && snapshot.properties.framesPerSecond == 240)
        #expect(snapshot.properties.layers.map(\.bitrateBitsPerSecond) == [1, 1_000_000_000, 5])
        #expect(snapshot.properties.creationTimeNanoseconds == UInt64(Int.max))
        let lowest = [Fixture.videoLine.replacingOccurrences(of: "fps=30", with: "fps=1"), "a=x-stagesim-layer:only 1 1"]
        #expect((try? decodedAtClient(Fixture.published(Fixture.publisher(videoSDP: Fixture.videoSDP(lowest)))).get()) != nil)
    }

    @Test("a publish request with an out-of-range layer is refused at the service too")
    func publishRequestChecked() {
        let sdp = #"v=0\r\na=x-stagesim-publish:audio,video\r\n\#(Fixture.videoLine)\r\na=x-stagesim-layer:h 1 9223372036854775807"#
        if case .success(let message) = decodedAtServer(#"{"type":"x-stagesim-request","sdp":"\#(sdp)"}"#) {
            Issue.record("decoded as \(message.summary)")
        }
    }

    @Test("the OpenTok layers of any publisher properties never trap: widths saturate, non-positive sizes keep the layer height")
    func openTokLayersNeverTrap() {
        var properties = PublisherProperties()
        properties.widthPixels = Int.max
        properties.heightPixels = 1
        properties.layers = [
            SimulcastLayer(name: "huge", bitrateBitsPerSecond: Int.max, heightPixels: Int.max),
            SimulcastLayer(name: "negative", bitrateBitsPerSecond: -1, heightPixels: -7),
        ]
        let layers = properties.openTokLayers
        #expect(layers.map(\.width) == [Int.max, -7])
        #expect(layers.map(\.bitsPerSecond) == [UInt64(Int.max), 0])
        properties.heightPixels = Int.min
        #expect(properties.openTokLayers.map(\.width) == [Int.max, -7])
        properties = PublisherProperties()
        #expect(properties.openTokLayers.map(\.width) == [360, 720], "720x1280: layers 640 and 1280 high keep the 9:16 aspect")
    }

    @Test("a landscape publisher's OpenTok layers are 640x360 and 1280x720, never wider than its frames (LST-4, SUB-7)")
    func landscapeLayers() throws {
        var video = VideoConfiguration()
        try video.setSize(widthPixels: 1280, heightPixels: 720)
        let layers = PublisherProperties(video: video).openTokLayers
        #expect(layers.map(\.width) == [640, 1280])
        #expect(layers.map(\.height) == [360, 720])
    }

    @Test("the issue's frame reaches a client as a logged protocol error and the session goes on")
    func issueFrameInAWorld() {
        var world = threeClientStage()
        let frame = Fixture.published(Fixture.publisher("carol", videoSDP: Fixture.videoSDP([Fixture.videoLine, "a=x-stagesim-layer:h 1 9223372036854775807"])))
        let before = world.clients[0]
        let events = deliverNow(frame, toClient: 0, in: &world)
        #expect(events.map(\.category) == ["protocol-error"])
        #expect(world.clients[0] == before)
    }
}
