@testable import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import SubscriberModel
import Testing
@testable import StageWorld

/// The monitors of the third planted-bug sweep, each shown a violating and a passing case
/// built by hand on the world of a subscribed pair ("pub" publishing unmuted audio and video,
/// "viewer" subscribed to both), with a keepalive slow enough that nothing is in flight at its end.
@Suite("Third sweep monitors")
struct SweepThreeMonitorTests {
    static func pair() throws -> World {
        try subscribedPairWorld(keepalive: "{pingInterval: 60s, pongTimeout: 60s}")
    }

    static func messages(_ monitor: some InvariantMonitor, _ events: [TraceEvent], world: World) -> [String] {
        var monitors = MonitorSet([monitor])
        monitors.observe(events, world: world)
        monitors.finish(world: world)
        return monitors.violations.map(\.message)
    }

    static func received(_ message: WireMessage, from client: String = "viewer") -> TraceEvent {
        TraceEvent(time: .seconds(4), observer: "server", kind: .delivered(message, frame: "{}"), peer: client)
    }

    @Test("subscription-requests-cover-held-streams: an unsubscribe or an audioOnly request while the viewer holds video is reported")
    func subscriptionRequests() throws {
        let world = try Self.pair()
        let viewer = try #require(world.clientIndex(named: "viewer"))
        #expect(world.clients[viewer].view["pub"]?.addedStreams.map(\.kind) == [.audio, .video])
        #expect(Self.messages(SubscriptionRequestMonitor(), [Self.received(.unsubscribe(publisherId: "pub"))], world: world)
            == ["the service received viewer's unsubscribe for pub, but viewer's renderers hold its audio and video stream"])
        #expect(Self.messages(SubscriptionRequestMonitor(), [Self.received(.subscribe(publisherId: "pub", .audioOnly))], world: world)
            == ["the service received viewer's subscribe audio for pub, but viewer's renderers hold its video stream"])
        #expect(Self.messages(SubscriptionRequestMonitor(), [Self.received(.subscribe(publisherId: "pub", .audioVideo))], world: world).isEmpty)
        #expect(Self.messages(SubscriptionRequestMonitor(), [Self.received(.unsubscribe(publisherId: "viewer"), from: "pub")], world: world).isEmpty,
                "pub holds nothing of the viewer")
    }

    static func askedToPublish() -> TraceEvent {
        var report = StrategyQueryReport(canPublish: true)
        report.askedShouldPublish = true
        return TraceEvent(time: .seconds(4), observer: "pub", kind: .strategyQueried(report))
    }

    @Test("publishing-follows-the-publish-answer: a publisher still published after its strategy said no is reported")
    func publishAnswer() throws {
        var world = try Self.pair()
        let pub = try #require(world.clientIndex(named: "pub"))
        #expect(world.clients[pub].view.local.publishState == .published)
        #expect(Self.messages(PublishAnswerMonitor(), [Self.askedToPublish()], world: world).isEmpty, "the strategy says yes")
        world.clients[pub].strategy.publish = false
        #expect(Self.messages(PublishAnswerMonitor(), [Self.askedToPublish()], world: world)
            == ["the strategy answered shouldPublish false, yet pub is published after the step that asked"])
        #expect(Self.messages(PublishAnswerMonitor(), [], world: world).isEmpty, "not asked in this step")
        world.clients[pub].strategy.publish = true
        world.clients[pub].strategy.streams = []
        #expect(Self.messages(PublishAnswerMonitor(), [Self.askedToPublish()], world: world)
            == ["the strategy answered no streams to publish, yet pub is published after the step that asked"])
        world.clients[pub].view.local.publishState = .notPublished
        #expect(Self.messages(PublishAnswerMonitor(), [Self.askedToPublish()], world: world).isEmpty)
    }

    static func created(_ stream: OpenTokStream) -> TraceEvent {
        let told = SubscriberTraceEvent(publisherId: "pub", streamId: stream.streamId, event: .streamCreated(stream))
        return TraceEvent(time: .seconds(4), observer: "viewer", kind: .subscriber(told))
    }

    @Test("publishes-create-streams-of-their-connection: a publish without streamCreated, or a stream with another connection id, is reported")
    func streamConnection() throws {
        let world = try Self.pair()
        let viewer = try #require(world.clientIndex(named: "viewer"))
        var stream = try #require(world.clients[viewer].subscribers.first?.state.stream)
        let info = try #require(world.clients[viewer].view["pub"]?.info)
        let joined = TraceEvent(time: .seconds(4), observer: "viewer", kind: .renderer(.participantDidJoin(info)))
        #expect(stream.connectionId == "pub")
        #expect(Self.messages(StreamConnectionMonitor(), [joined, Self.created(stream)], world: world).isEmpty)
        #expect(Self.messages(StreamConnectionMonitor(), [joined], world: world) == ["pub joined as a publisher, but no streamCreated came for it"])
        stream.connectionId = "user-pub"
        #expect(Self.messages(StreamConnectionMonitor(), [joined, Self.created(stream)], world: world)
            == ["stream \(stream.streamId) of pub carries connection user-pub, not its publisher's"])
    }

    @Test("subscribed-media-connects-the-subscriber: a subscription reaching subscribed while the subscriber is not connected is reported")
    func subscriberConnects() throws {
        var world = try Self.pair()
        let viewer = try #require(world.clientIndex(named: "viewer"))
        let info = try #require(world.clients[viewer].view["pub"]?.info)
        let subscribed = TraceEvent(time: .seconds(4), observer: "viewer", kind: .renderer(.subscribeStateChanged(info, .subscribed, nil)))
        #expect(world.clients[viewer].subscribers[0].state.phase == .connected)
        #expect(Self.messages(SubscriberConnectMonitor(), [subscribed], world: world).isEmpty)
        _ = world.clients[viewer].subscribers[0].state.unsubscribe()
        #expect(Self.messages(SubscriberConnectMonitor(), [subscribed], world: world)
            == ["the subscription to pub reached subscribed, yet its subscriber #1 to pub-1 is unsubscribed, not connected"])
    }

    @Test("own-frames-are-understood: a protocol error at the service or at a client is reported unless the frame, or an earlier one to that client, was injected")
    func ownFrames() throws {
        let world = try Self.pair()
        let bad = "{\"type\":\"nonsense\"}"
        let atServer = TraceEvent(time: .seconds(4), observer: "server", kind: .protocolError(frame: bad, reason: "unknown type"), peer: "viewer")
        let atClient = TraceEvent(time: .seconds(4), observer: "viewer", kind: .protocolError(frame: bad, reason: "unknown type"), peer: "server")
        let injected = TraceEvent(time: .seconds(4), observer: "viewer", kind: .protocolError(frame: bad, reason: "unknown type"), peer: TraceEvent.injectedSender)
        #expect(Self.messages(OwnFrameMonitor(), [atServer], world: world) == ["a frame viewer sent was a protocol error at server: unknown type; frame \(bad)"])
        #expect(Self.messages(OwnFrameMonitor(), [atClient], world: world) == ["a frame server sent was a protocol error at viewer: unknown type; frame \(bad)"])
        #expect(Self.messages(OwnFrameMonitor(), [injected], world: world).isEmpty)
        #expect(Self.messages(OwnFrameMonitor(), [injected, atClient, atServer], world: world).isEmpty, "the viewer heard an injected frame first")
        let delivered = TraceEvent(time: .seconds(4), observer: "viewer", kind: .delivered(.ping, frame: "{}"), peer: "server")
        #expect(Self.messages(OwnFrameMonitor(), [delivered], world: world).isEmpty)
    }

    @Test("own-frames-are-understood passes the bundled scenarios, whose injected frames are the only protocol errors", arguments: [
        "sig-8-rnd-3-contradicting-frames", "sig-8-bad-frames-keep-state", "sig-8-out-of-range-numbers",
        "sig-8-unknown-participant-frames",
    ])
    func ownFramesInScenarios(_ name: String) throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(name).yaml")
        let violations = monitoredRun(of: scenario, with: OwnFrameMonitor()).violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
    }
}
