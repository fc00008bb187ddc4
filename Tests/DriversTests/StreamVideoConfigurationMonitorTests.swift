@testable import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import SubscriberModel
import Testing
@testable import StageWorld

/// StreamPropertiesMonitor's LST-3/LST-4/SUB-7 clauses: a stream shows the size and layers of
/// the publish its client was last told of, and at the end of a run the service holds the
/// configuration the publisher's strategy returned. The violations are made by hand on the
/// world of a subscribed pair ("viewer" connected to "pub"'s audio and video).
@Suite("StreamPropertiesMonitor: configured video reaches subscribers (LST-3, LST-4, SUB-7)")
struct StreamVideoConfigurationMonitorTests {
    static func messages(_ steps: [(TraceEvent, World)], finishing world: World? = nil) -> [String] {
        var monitors = MonitorSet([StreamPropertiesMonitor()])
        for (event, world) in steps { monitors.observe([event], world: world) }
        if let world { monitors.finish(world: world) }
        return monitors.violations.map(\.message)
    }

    /// `configuration` as pub's snapshot delivered to viewer.
    static func told(_ configuration: VideoConfiguration, in world: World) throws -> TraceEvent {
        let pub = try #require(world.server.participants.first { $0.info.participantId == "pub" })
        var properties = PublisherProperties(video: configuration).created(at: pub.properties.creationTimeNanoseconds, streamNumber: pub.properties.streamNumber)
        properties.videoType = pub.properties.videoType
        let snapshot = PublisherSnapshot(info: pub.info, streams: pub.publishedStreams, properties: properties)
        return TraceEvent(time: .seconds(6), observer: "viewer", kind: .delivered(.participantPublished(snapshot), frame: ""), peer: "server")
    }

    /// viewer's stream of pub as it stands, announced again.
    static func created(in world: World) throws -> TraceEvent {
        let viewer = try #require(world.clientIndex(named: "viewer"))
        let stream = try #require(world.clients[viewer].subscribers.first).state.stream
        let told = SubscriberTraceEvent(publisherId: "pub", streamId: stream.streamId, event: .streamCreated(stream), subscriber: 1)
        return TraceEvent(time: .seconds(6), observer: "viewer", kind: .subscriber(told))
    }

    static func configuration(width: Int = 720, height: Int = 1280, framerate: Int = 30, simulcast: Bool = true) throws -> VideoConfiguration {
        var configuration = VideoConfiguration()
        try configuration.setSize(widthPixels: width, heightPixels: height)
        try configuration.setTargetFramerate(framerate)
        configuration.simulcastEnabled = simulcast
        return configuration
    }

    @Test("the bundled per-stream republish passes with viewers told the new size and layers")
    func realRun() throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/lst-3-sub-7-stream-video-republish.yaml")
        var told = 0
        let violations = monitoredRun(of: scenario, with: StreamPropertiesMonitor()) { events in
            told += events.filter { if case .delivered(.participantPublished, _) = $0.kind { true } else { false } }.count
        }.violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        #expect(told >= 4)
    }

    @Test("a stream that keeps its size or layers after its client was told others is caught")
    func staleStream() throws {
        let world = try subscribedPairWorld()
        #expect(Self.messages([(try Self.told(try Self.configuration(), in: world), world), (try Self.created(in: world), world)]).isEmpty)
        let resized = Self.messages([(try Self.told(try Self.configuration(width: 360, height: 640), in: world), world), (try Self.created(in: world), world)])
        #expect(resized == ["stream pub-1 of pub is 720x1280, but viewer was told pub publishes 360x640"])
        let oneLayer = Self.messages([(try Self.told(try Self.configuration(framerate: 15, simulcast: false), in: world), world), (try Self.created(in: world), world)])
        #expect(oneLayer == [#"stream pub-1 of pub has layers ["640p@30 625000 bps", "1280p@30 2500000 bps"], but viewer was told pub publishes ["1280p@15 2500000 bps"]"#])
    }

    @Test("at the end of a run the service holds the configuration the strategy returned")
    func heldConfiguration() throws {
        let world = try subscribedPairWorld(keepalive: "{pingInterval: 30s, pongTimeout: 30s}")
        #expect(Self.messages([], finishing: world).isEmpty)
        let server = try #require(world.server.participants.firstIndex { $0.info.participantId == "pub" })
        var slow = world
        slow.server.participants[server].properties.framesPerSecond = 15
        #expect(Self.messages([], finishing: slow).count == 1)
        var single = world
        single.server.participants[server].properties.layers = [SimulcastLayer(name: "high", bitrateBitsPerSecond: 2_500_000, heightPixels: 1280)]
        let message = try #require(Self.messages([], finishing: single).first)
        #expect(message.hasPrefix("the service holds pub's publish as 720x1280@30 with layers [high(1280p, 2500 kbps)], but its strategy's video is configured 720x1280@30"))
        // Its strategy returned a video stream of its own configuration: that is what must be held.
        let pub = try #require(world.clientIndex(named: "pub"))
        var report = StrategyQueryReport(canPublish: true)
        report.streamsReturned = [LocalStream(kind: .audio), LocalStream(kind: .video, video: try Self.configuration(width: 360, height: 640))]
        let query = TraceEvent(time: .seconds(6), observer: world.clients[pub].name, kind: .strategyQueried(report))
        #expect(Self.messages([(query, world)], finishing: world).count == 1)
    }
}
