@testable import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import SubscriberModel
import Testing
@testable import StageWorld

/// The monitor of the fifth planted-bug sweep: shown real runs (which must pass, and fail
/// against a model that builds a stream from the wrong settings) and hand-made streams.
@Suite("Fifth sweep monitors")
struct SweepFiveMonitorTests {
    /// A landscape screen share published by user "presenter-7", watched by a viewer.
    static let screenShare = """
        name: a landscape screen share
        duration: 5s
        participants:
          - {name: pub, userId: presenter-7, video: {width: 1280, height: 720}, videoType: screen, strategy: {publish: true, subscribe: none}}
          - {name: viewer, strategy: {publish: false, subscribe: audioVideo}}
        steps:
          - {at: 0s, participant: pub, call: join}
          - {at: 0s, participant: viewer, call: join}
          - {at: 2s, participant: pub, call: setMuted, stream: video, muted: true}
          - {at: 3s, participant: pub, call: setMuted, stream: video, muted: false}
        """

    @Test("streams-describe-their-publisher: a real run's streams carry the publisher's size, type and user id")
    func realRunsPass() throws {
        for text in [Self.screenShare, Self.screenShare.replacingOccurrences(of: ", video: {width: 1280, height: 720}, videoType: screen", with: "")] {
            let scenario = try ScenarioLoader.parse(text, path: "screen-share.yaml")
            var created: [OpenTokStream] = []
            let run = monitoredRun(of: scenario, with: StreamPropertiesMonitor()) { events in
                for event in events {
                    if case .subscriber(let told) = event.kind, case .streamCreated(let stream) = told.event { created.append(stream) }
                }
            }
            #expect(run.violations.map(\.message) == [])
            #expect(!created.isEmpty, "the run must create a stream for the monitor to judge")
        }
    }

    @Test("streams-describe-their-publisher: a stream with another size, type or name than its publisher's is reported")
    func wrongPropertiesReported() throws {
        let world = try subscribedPairWorld(keepalive: "{pingInterval: 60s, pongTimeout: 60s}")
        let viewer = try #require(world.clientIndex(named: "viewer"))
        let stream = try #require(world.clients[viewer].subscribers.first?.state.stream)
        let info = try #require(world.clients[viewer].view["pub"]?.info)
        let joined = TraceEvent(time: .seconds(4), observer: "viewer", kind: .renderer(.participantDidJoin(info)))
        let streamMessages = { (events: [TraceEvent]) in
            SweepThreeMonitorTests.messages(StreamPropertiesMonitor(), events, world: world)
        }
        let messages = { (stream: OpenTokStream) in streamMessages([joined, SweepThreeMonitorTests.created(stream)]) }
        #expect(messages(stream) == [])
        #expect(stream.videoDimensions == OpenTokStream.VideoDimensions(width: 720, height: 1280))
        var swapped = stream
        swapped.videoDimensions = OpenTokStream.VideoDimensions(width: 1280, height: 720)
        #expect(messages(swapped) == ["stream \(stream.streamId) of pub is 1280x720 camera, but pub publishes 720x1280 camera"])
        var screen = stream
        screen.videoType = .screen
        #expect(messages(screen) == ["stream \(stream.streamId) of pub is 720x1280 screen, but pub publishes 720x1280 camera"])
        var renamed = stream
        renamed.name = "pub"
        #expect(messages(renamed) == ["stream \(stream.streamId) of pub is named \"pub\", but it was published by user \(TraceText.json(info.userId))"])
        #expect(info.userId != "pub")
        // Without the join in the same step, the name is not judged; the size still is.
        #expect(streamMessages([SweepThreeMonitorTests.created(renamed)]) == [])
    }

    /// The publisher changes its tracks at 2 s (a new publish of a stream it goes on
    /// publishing); a viewer that joins at 3 s is told of the stream created at the first publish.
    static let trackChange = """
        name: a publisher changes its tracks, then a late viewer joins
        duration: 5s
        participants:
          - {name: pub, strategy: {publish: true, subscribe: none}}
          - {name: early, strategy: {publish: false, subscribe: audioVideo}}
          - {name: late, strategy: {publish: false, subscribe: audioVideo}}
        steps:
          - {at: 0s, participant: pub, call: join}
          - {at: 0s, participant: early, call: join}
          - {at: 2s, participant: pub, call: setStrategy, strategy: {streams: [audio]}}
          - {at: 2s, participant: pub, call: refreshStrategy}
          - {at: 3s, participant: late, call: join}
        """

    @Test("streams-describe-their-publisher: a stream keeps the creation time of its first publish through a track change")
    func creationTimeKept() throws {
        let scenario = try ScenarioLoader.parse(Self.trackChange, path: "track-change.yaml")
        var created: [String: UInt64] = [:]
        let run = monitoredRun(of: scenario, with: StreamPropertiesMonitor()) { events in
            for event in events {
                if case .subscriber(let told) = event.kind, case .streamCreated(let stream) = told.event { created[event.observer] = stream.creationTime }
            }
        }
        #expect(run.violations.map(\.message) == [])
        let early = try #require(created["early"]), late = try #require(created["late"])
        #expect(early == late, "one stream, one creation time")
        #expect(early < VirtualTime.seconds(1).nanoseconds)
        #expect(run.world.server.participants.first { $0.info.participantId == "pub" }?.publishedStreams.map(\.kind) == [.audio],
                "the track change reached the service")
    }

    @Test("streams-describe-their-publisher: the service re-stamping a stream that goes on publishing is reported")
    func restampReported() throws {
        let world = try subscribedPairWorld(keepalive: "{pingInterval: 60s, pongTimeout: 60s}")
        var monitor = StreamPropertiesMonitor()
        let time = world.now
        #expect(monitor.endOfStep(world: world, lastEventIndex: 0, time: time).isEmpty, "first seen publishing: not judged")
        #expect(monitor.endOfStep(world: world, lastEventIndex: 0, time: time).isEmpty, "kept from the step before")
        var restamped = world
        let index = try #require(restamped.server.participants.firstIndex { $0.info.participantId == "pub" })
        restamped.server.participants[index].properties.creationTimeNanoseconds += 1
        let stamp = restamped.server.participants[index].properties.creationTimeNanoseconds
        #expect(monitor.endOfStep(world: restamped, lastEventIndex: 0, time: time).map(\.message)
            == ["the service holds pub's stream as created at \(VirtualTime(nanoseconds: stamp)), but it has published since its stream was created at \(VirtualTime(nanoseconds: stamp - 1))"])
    }
}
