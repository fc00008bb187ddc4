import Testing
import SubscriberModel

@Suite("Stream properties (SUB-7)")
struct OpenTokStreamTests {
    @Test("SUB-7: a stream carries connection, creationTime, hasAudio, hasVideo, name, streamId, videoDimensions, videoType")
    func properties() {
        let stream = OpenTokStream(
            streamId: "s-42", sessionId: "sess-1", connectionId: "c-7", creationTime: 1_234,
            hasAudio: false, hasVideo: true, name: "Alice's camera",
            videoDimensions: .init(width: 1920, height: 1080), videoType: .screen,
            audioFallbackEnabled: false, layers: [Fixture.low])
        #expect(stream.streamId == "s-42")
        #expect(stream.sessionId == "sess-1")
        #expect(stream.connectionId == "c-7")
        #expect(stream.creationTime == 1_234)
        #expect(stream.hasAudio == false)
        #expect(stream.hasVideo == true)
        #expect(stream.name == "Alice's camera")
        #expect(stream.videoDimensions == .init(width: 1920, height: 1080))
        #expect(stream.videoType == .screen)
        #expect(stream.audioFallbackEnabled == false)
        #expect(stream.layers == [Fixture.low])
    }

    @Test("SUB-7: videoType is camera, screen or custom")
    func videoTypes() {
        #expect(OpenTokStream.VideoType.allCases.map(\.rawValue) == ["camera", "screen", "custom"])
    }

    @Test("SUB-6/SUB-7: a publisher keeps audio fallback unless it opts out; no layers means not scalable")
    func defaults() {
        let stream = OpenTokStream(streamId: "s", connectionId: "c")
        #expect(stream.audioFallbackEnabled)
        #expect(stream.layers.isEmpty)
        #expect(stream.hasAudio && stream.hasVideo)
        #expect(stream.videoType == .camera)
    }

    @Test("SUB-7: hasVideo follows the publisher while subscribed")
    func hasVideoFollowsPublisher() {
        var state = Fixture.connected()
        state.publisherVideoChanged(enabled: false)
        #expect(state.stream.hasVideo == false)
        state.publisherVideoChanged(enabled: true)
        #expect(state.stream.hasVideo == true)
    }

    @Test("SUB-2..5: event names are the SDK callback names")
    func eventNames() {
        #expect(SubscriberEvent.subscriberDidConnectToStream.name == "subscriberDidConnectToStream")
        #expect(SubscriberEvent.subscriberVideoDisabled(reason: .qualityChanged).description == "subscriberVideoDisabled(qualityChanged)")
        #expect(SubscriberVideoEventReason.allCases.map(\.rawValue)
            == ["publisherPropertyChanged", "subscriberPropertyChanged", "qualityChanged"])
    }
}
