@testable import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import SubscriberModel
import Testing
@testable import StageWorld

/// The monitors of the second planted-bug sweep, each shown a violating and a passing case
/// built by hand on the world of a subscribed pair ("pub" publishing unmuted audio and video,
/// "viewer" subscribed), with a keepalive slow enough that nothing is in flight at its end.
@Suite("Second sweep monitors (LST-2, SUB-6, STG-1, SIG-6)")
struct SweepTwoMonitorTests {
    static func pair() throws -> World {
        try subscribedPairWorld(keepalive: "{pingInterval: 60s, pongTimeout: 60s}")
    }

    static func messages(_ monitor: some InvariantMonitor, _ events: [TraceEvent], world: World) -> [String] {
        var monitors = MonitorSet([monitor])
        for event in events { monitors.observe([event], world: world) }
        monitors.finish(world: world)
        return monitors.violations.map(\.message)
    }

    static func returned(_ streams: [LocalStream]) -> TraceEvent {
        var report = StrategyQueryReport(canPublish: true)
        report.askedShouldPublish = true
        report.streamsReturned = streams
        return TraceEvent(time: .seconds(4), observer: "pub", kind: .strategyQueried(report))
    }

    @Test("published-mutes-follow-the-strategy: a returned mute the stage does not hold is reported; a later unmute clears it")
    func publishedMutes() throws {
        let world = try Self.pair()
        let mutedAudio = [LocalStream(kind: .audio, instance: 2, isMuted: true), LocalStream(kind: .video)]
        #expect(Self.messages(PublishedMuteMonitor(), [Self.returned(mutedAudio)], world: world)
            == ["nothing in flight on its link, yet the stage holds its audio unmuted while the strategy returned audio#2(muted)"])
        #expect(Self.messages(PublishedMuteMonitor(), [Self.returned([LocalStream(kind: .audio), LocalStream(kind: .video)])], world: world).isEmpty)
        let unmute = TraceEvent(time: .seconds(4), observer: "pub", kind: .hostCall(.setMuted(.audio, false)))
        var monitors = MonitorSet([PublishedMuteMonitor()])
        monitors.observe([Self.returned(mutedAudio), unmute], world: world)
        #expect(monitors.violations.isEmpty)
    }

    static func qualityDisable(_ reason: SubscriberVideoEventReason) -> TraceEvent {
        let told = SubscriberTraceEvent(publisherId: "pub", streamId: "pub-1", event: .subscriberVideoDisabled(reason: reason))
        return TraceEvent(time: .seconds(4), observer: "viewer", kind: .subscriber(told))
    }

    @Test("quality-fallback-only-where-allowed: a quality disable for a publisher without audio fallback is reported")
    func qualityFallback() throws {
        let scenario = try ScenarioLoader.parse("""
            name: a publisher without audio fallback and a subscribed viewer
            duration: 5s
            participants:
              - {name: pub, audioFallback: false, strategy: {publish: true, subscribe: none}}
              - {name: viewer, strategy: {publish: false, subscribe: audioVideo}}
            steps:
              - {at: 0s, participant: pub, call: join}
              - {at: 0s, participant: viewer, call: join}
            """, path: "no-fallback-pair.yaml")
        let noFallback = ScenarioRunner.run(scenario).finalWorld
        #expect(Self.messages(QualityFallbackMonitor(), [Self.qualityDisable(.qualityChanged)], world: noFallback)
            == ["pub-1 was disabled for quality, yet pub publishes with audioFallbackEnabled = false"])
        #expect(Self.messages(QualityFallbackMonitor(), [Self.qualityDisable(.publisherPropertyChanged)], world: noFallback).isEmpty)
        #expect(Self.messages(QualityFallbackMonitor(), [Self.qualityDisable(.qualityChanged)], world: try Self.pair()).isEmpty)
    }

    @Test("leave-disconnects-at-once: a leave() that leaves the client connected or connecting is reported")
    func leave() throws {
        var world = try Self.pair()
        let viewer = try #require(world.clientIndex(named: "viewer"))
        let call = TraceEvent(time: .seconds(4), observer: "viewer", kind: .hostCall(.leave))
        #expect(Self.messages(LeaveMonitor(), [call], world: world) == ["leave() left it connected"])
        world.clients[viewer].view.local.connectionState = .connecting
        #expect(Self.messages(LeaveMonitor(), [call], world: world) == ["leave() left it connecting"])
        world.clients[viewer].view.local.connectionState = .disconnected
        #expect(Self.messages(LeaveMonitor(), [call], world: world).isEmpty)
    }

    @Test("pong-deadline-decides-the-connection counts pongs itself: pongs the service claims but was never handed do not answer its pings")
    func pongsCountedByTheMonitor() throws {
        let pair = try Self.pair()
        var world = pair
        let pub = try #require(world.server.participants.firstIndex { $0.info.participantId == "pub" })
        world.server.participants[pub].pingsSent = 2
        world.server.participants[pub].pongsHeard = 2
        let pong = TraceEvent(time: .seconds(4), observer: "server", kind: .delivered(.pong, frame: Envelope(from: .client(0), to: .server, message: .pong, epoch: 1, channelId: "stage").frame), peer: "pub")
        var monitors = MonitorSet([KeepaliveVerdictMonitor()])
        monitors.observe([pong], world: pair)
        monitors.observe([pong], world: pair)
        monitors.finish(world: world)
        #expect(monitors.violations.isEmpty, "\(monitors.violations.map(\.description))")
        let epoch = world.server.participants[pub].epoch
        #expect(Self.messages(KeepaliveVerdictMonitor(), [], world: world)
            == ["ping 1 of pub had no pong within the pong timeout, yet the service keeps connection \(epoch) open"])
    }
}
