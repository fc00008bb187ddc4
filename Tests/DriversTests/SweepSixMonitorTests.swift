@testable import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import SubscriberModel
import Testing
@testable import StageWorld

/// The monitor clauses of the sixth planted-bug sweep: STR-3's question once connected and
/// its yes answer (`publishing-follows-the-publish-answer`), and SUB-3's unsubscribe that
/// disconnects the subscriber (`subscribed-media-connects-the-subscriber`), each shown real
/// runs (which must pass, and fail against the planted model) and hand-made steps on the world
/// of a subscribed pair.
@Suite("Sixth sweep monitors")
struct SweepSixMonitorTests {
    static func connected(_ observer: String) -> TraceEvent {
        TraceEvent(time: .seconds(4), observer: observer, kind: .renderer(.connectionStateChanged(.connected, nil)))
    }

    static func asked(_ observer: String, returning streams: [LocalStream]?) -> TraceEvent {
        var report = StrategyQueryReport(canPublish: true)
        report.askedShouldPublish = true
        report.streamsReturned = streams
        return TraceEvent(time: .seconds(4), observer: observer, kind: .strategyQueried(report))
    }

    @Test("publishing-follows-the-publish-answer: a connection that does not ask shouldPublish, or a yes left unpublished, is reported (STR-3)")
    func publishAskedOnceConnected() throws {
        var world = try SweepThreeMonitorTests.pair()
        let pub = try #require(world.clientIndex(named: "pub"))
        let messages = { (events: [TraceEvent], world: World) in SweepThreeMonitorTests.messages(PublishAnswerMonitor(), events, world: world) }
        let both = [LocalStream(kind: .audio), LocalStream(kind: .video)]
        #expect(world.clients[pub].claims?.capabilities.canPublish == true)
        #expect(messages([Self.connected("pub")], world) == ["pub connected with a token that allows publishing, yet its SDK did not ask shouldPublish in that step"])
        #expect(messages([Self.connected("pub"), Self.asked("pub", returning: both)], world) == [])
        world.clients[pub].view.local.publishState = .notPublished
        #expect(messages([Self.asked("pub", returning: both)], world) == ["the strategy answered yes with streams to publish, yet pub is notPublished after the step that asked"])
        #expect(messages([Self.asked("pub", returning: [])], world) == [], "no streams: not a yes")
        #expect(messages([Self.asked("pub", returning: nil)], world) == [], "shouldPublish false")
        world.clients[pub].view.local.publishState = .attemptingPublish
        #expect(messages([Self.asked("pub", returning: both)], world) == [])
        world.clients[pub].view.local.connectionState = .disconnected
        #expect(messages([Self.connected("pub")], world) == [], "no longer connected at the step's end")
    }

    @Test("publishing-follows-the-publish-answer: real joins and reconnects ask shouldPublish and publish as answered", arguments: [
        "net-3-partition-reconnect", "str-3-publish-needs-capability", "str-8-background-mode",
    ])
    func realConnectionsPass(_ name: String) throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(name).yaml")
        var connections = 0
        let run = monitoredRun(of: scenario, with: PublishAnswerMonitor()) { events in
            connections += events.filter { if case .renderer(.connectionStateChanged(.connected, _)) = $0.kind { true } else { false } }.count
        }
        #expect(run.violations.map(\.message) == [])
        #expect(connections >= 2, "the run must connect clients for the monitor to judge")
    }

    @Test("subscribed-media-connects-the-subscriber: a subscription that ended with its subscriber still subscribing or connected is reported (SUB-3)")
    func unsubscribeDisconnectsTheSubscriber() throws {
        var world = try SweepThreeMonitorTests.pair()
        let viewer = try #require(world.clientIndex(named: "viewer"))
        let info = try #require(world.clients[viewer].view["pub"]?.info)
        let state = { (state: SubscribeState) in TraceEvent(time: .seconds(4), observer: "viewer", kind: .renderer(.subscribeStateChanged(info, state, nil))) }
        let messages = { (events: [TraceEvent], world: World) in SweepThreeMonitorTests.messages(SubscriberConnectMonitor(), events, world: world) }
        try #require(world.clients[viewer].subscribers.count == 1, "the pair's run must leave the viewer one subscriber")
        #expect(messages([state(.notSubscribed)], world) == ["the subscription to pub ended, yet its subscriber #1 to pub-1 is connected, not unsubscribed"])
        #expect(messages([state(.notSubscribed), state(.subscribed)], world) == [], "subscribed again in the same step")
        _ = world.clients[viewer].subscribers[0].state.unsubscribe()
        #expect(messages([state(.notSubscribed)], world) == [])
        #expect(messages([state(.subscribed), state(.notSubscribed)], world) == [], "ended last in the step")
    }

    @Test("an unsubscribe while the subscription is still being attempted ends the subscriber, and subscribing again connects a new one (SUB-2, SUB-3)")
    func unsubscribeWhileSubscribing() throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/sub-3-unsubscribe-while-subscribing.yaml")
        var ended = false
        let run = monitoredRun(of: scenario, with: SubscriberConnectMonitor()) { events in
            for event in events {
                if case .renderer(.subscribeStateChanged(_, .notSubscribed, _)) = event.kind, event.observer == "viewer" { ended = true }
            }
        }
        #expect(run.violations.map(\.message) == [])
        #expect(ended, "the viewer's subscription must end while it is being attempted")
        let viewer = try #require(run.world.clientIndex(named: "viewer"))
        let slot = try #require(run.world.clients[viewer].subscribers.first { $0.publisherId == "host" })
        #expect(slot.subscriber == 2, "subscribing again makes a new subscriber")
        #expect(slot.state.phase == .connected)
    }
}
