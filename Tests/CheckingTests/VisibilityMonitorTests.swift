import Checking
import Simulation
import StageCore
import Testing
@testable import StageWorld

/// Observers for hand-made traces: alice is the participant whose metadata changes; bob runs
/// mobile 1.37.0, carol web 1.40.0, dave mobile 1.36.0, comp is a server-side composition.
private func observerWorld() -> World {
    let kinds: [(String, SDKKind)] = [
        ("alice", .mobile(SemanticVersion(1, 37, 0))),
        ("bob", .mobile(SemanticVersion(1, 37, 0))),
        ("carol", .web(SemanticVersion(1, 40, 0))),
        ("dave", .mobile(SemanticVersion(1, 36, 0))),
        ("comp", .composition),
    ]
    let clients = kinds.map { name, sdk in
        ClientConfig(name: name, sdk: sdk, token: .signed(StageKeys.claims(participantId: name, stageId: "stage-1"), by: .app), strategy: StrategySpec())
    }
    return World(stageId: "stage-1", clients: clients, links: [:], defaultLink: LinkConditions(), seed: 1)
}

private let aliceOld = ParticipantInfo(participantId: "alice", userId: "u-old", attributes: ["role": "guest"])
private let aliceNew = ParticipantInfo(participantId: "alice", userId: "u-new", attributes: ["role": "host"])
private let aliceStreams = [StageStream(participantId: "alice", kind: .audio), StageStream(participantId: "alice", kind: .video)]

/// Builds a trace one event at a time, 1 ms apart.
private struct TraceBuilder {
    var events: [TraceEvent] = []

    private var nextTime: VirtualTime { .milliseconds(UInt64(events.count + 1)) }

    mutating func deliver(_ observer: String, _ message: WireMessage) {
        events.append(TraceEvent(time: nextTime, observer: observer, kind: .delivered(message, frame: WireFrames.signaling(message, channelId: "stage-1").frame)))
    }

    mutating func render(_ observer: String, _ event: RendererEvent) {
        events.append(TraceEvent(time: nextTime, observer: observer, kind: .renderer(event)))
    }

    /// `observer` hears alice publish with `info` and announces her.
    mutating func announce(_ observer: String, _ info: ParticipantInfo = aliceOld, muted: Bool = false) {
        let streams = aliceStreams.map { StageStream(participantId: $0.participantId, kind: $0.kind, isMuted: muted) }
        deliver(observer, .participantPublished(PublisherSnapshot(info: info, streams: streams)))
        render(observer, .participantDidJoin(info))
    }
}

/// Runs a fresh VisibilityMonitor over `trace`; with `finish`, also its end-of-run check.
private func check(_ trace: TraceBuilder, finish: Bool = true) -> [Violation] {
    let world = observerWorld()
    var monitors = MonitorSet([VisibilityMonitor()])
    monitors.observe(trace.events, world: world)
    if finish { monitors.finish(world: world) }
    return monitors.violations
}

@Suite("VisibilityMonitor (VIS-1..4)")
struct VisibilityMonitorTests {
    // MARK: Correct traces

    @Test("VIS-3: mobile 1.37.0 rendering the update at once, then later events with it, is correct")
    func mobileSeesUpdateAtOnce() {
        var trace = TraceBuilder()
        trace.announce("bob")
        trace.render("bob", .subscribeStateChanged(aliceOld, .attemptingSubscribe, nil))
        trace.deliver("bob", .subscribeAccepted(publisherId: "alice"))
        trace.render("bob", .subscribeStateChanged(aliceOld, .subscribed, nil))
        trace.render("bob", .didAddStreams(aliceOld, aliceStreams))
        trace.deliver("bob", .participantUpdated(aliceNew))
        trace.render("bob", .participantMetadataDidUpdate(aliceNew))
        trace.deliver("bob", .participantPublished(PublisherSnapshot(info: aliceNew, streams: [aliceStreams[0]])))
        trace.render("bob", .didRemoveStreams(aliceNew, [aliceStreams[1]]))
        #expect(check(trace).isEmpty)
    }

    @Test("VIS-3/VIS-4: web, mobile 1.36.0 and composition keep the old metadata until the republish's join")
    func olderObserversSeeUpdateOnlyAtRepublish() {
        for observer in ["carol", "dave", "comp"] {
            var trace = TraceBuilder()
            trace.announce(observer)
            trace.deliver(observer, .participantUpdated(aliceNew))
            trace.deliver(observer, .participantPublished(PublisherSnapshot(info: aliceNew, streams: aliceStreams.map { StageStream(participantId: "alice", kind: $0.kind, isMuted: true) })))
            trace.render(observer, .didChangeMutedStreams(aliceOld, aliceStreams.map { StageStream(participantId: "alice", kind: $0.kind, isMuted: true) }))
            trace.deliver(observer, .participantUnpublished(participantId: "alice"))
            trace.render(observer, .subscribeStateChanged(aliceOld, .notSubscribed, nil))
            trace.render(observer, .participantDidLeave(aliceOld))
            trace.announce(observer, aliceNew)
            trace.render(observer, .subscribeStateChanged(aliceNew, .attemptingSubscribe, nil))
            #expect(check(trace).isEmpty, "\(observer)")
        }
    }

    @Test("VIS-2: an update before publishing is silent and shows in every observer's join event")
    func silentUpdateBeforePublish() {
        var trace = TraceBuilder()
        for observer in ["bob", "carol", "dave", "comp"] {
            trace.deliver(observer, .participantJoined(aliceOld))
            trace.deliver(observer, .participantUpdated(aliceNew))
            trace.announce(observer, aliceNew)
        }
        #expect(check(trace).isEmpty)
    }

    // MARK: VIS-1

    @Test("VIS-1: participantMetadataDidUpdate to a web, mobile 1.36.0 or composition observer is a violation", arguments: ["carol", "dave", "comp"])
    func metadataEventToOlderObserver(observer: String) throws {
        var trace = TraceBuilder()
        trace.announce(observer)
        trace.deliver(observer, .participantUpdated(aliceNew))
        trace.render(observer, .participantMetadataDidUpdate(aliceNew))
        let found = check(trace)
        try #require(found.count == 1, "\(found)")
        #expect(found[0].invariant == "metadata-visibility")
        #expect(found[0].rules.contains("VIS-1"))
        #expect(found[0].observer == observer)
        #expect(found[0].eventIndex == 3)
        #expect(found[0].message.contains("only mobile >= 1.37.0"))
    }

    @Test("VIS-1: a metadata event that changes neither userId nor attributes (a capability-only exchange) is a violation")
    func metadataEventWithoutMetadataChange() {
        var trace = TraceBuilder()
        trace.announce("bob")
        var capabilitiesOnly = aliceOld
        capabilitiesOnly.capabilities.canPublish.toggle()
        trace.deliver("bob", .participantUpdated(capabilitiesOnly))
        trace.render("bob", .participantMetadataDidUpdate(capabilitiesOnly))
        let found = check(trace)
        #expect(found.count == 1)
        #expect(found.first?.eventIndex == 3)
        #expect(found.first?.message.contains("changes neither its userId nor its attributes") == true)
        var silent = TraceBuilder()
        silent.announce("bob")
        silent.deliver("bob", .participantUpdated(capabilitiesOnly))
        #expect(check(silent).isEmpty, "nothing owed: the update changed no metadata")
    }

    @Test("VIS-1: a metadata event for a participant not announced to a mobile 1.37.0 observer is a violation")
    func metadataEventBeforeJoin() {
        var trace = TraceBuilder()
        trace.deliver("bob", .participantJoined(aliceOld))
        trace.deliver("bob", .participantUpdated(aliceNew))
        trace.render("bob", .participantMetadataDidUpdate(aliceNew))
        let found = check(trace)
        #expect(found.count == 1)
        #expect(found.first?.eventIndex == 2)
        #expect(found.first?.message.contains("not announced") == true)
    }

    @Test("VIS-1: a metadata event that is not the newest metadata received is a violation")
    func staleMetadataEvent() {
        var trace = TraceBuilder()
        trace.announce("bob")
        trace.deliver("bob", .participantUpdated(aliceNew))
        trace.render("bob", .participantMetadataDidUpdate(aliceOld))
        let found = check(trace, finish: false)
        #expect(found.count == 1)
        #expect(found.first?.eventIndex == 3)
    }

    // MARK: VIS-2

    @Test("VIS-2: a join event with a userId older than the newest participantUpdated is a violation", arguments: ["bob", "carol", "dave", "comp"])
    func joinWithStaleMetadata(observer: String) throws {
        var trace = TraceBuilder()
        trace.deliver(observer, .participantJoined(aliceOld))
        trace.deliver(observer, .participantUpdated(aliceNew))
        trace.render(observer, .participantDidJoin(aliceOld))
        let found = check(trace)
        try #require(found.count == 1, "\(found)")
        #expect(found[0].observer == observer)
        #expect(found[0].eventIndex == 2)
        #expect(found[0].message.contains("participantDidJoin"))
        #expect(found[0].message.contains("u-new"))
    }

    @Test("VIS-4: a republish's join event with the pre-exchange userId is a violation")
    func republishWithStaleMetadata() {
        var trace = TraceBuilder()
        trace.announce("carol")
        trace.deliver("carol", .participantUpdated(aliceNew))
        trace.deliver("carol", .participantUnpublished(participantId: "alice"))
        trace.render("carol", .participantDidLeave(aliceOld))
        trace.deliver("carol", .participantPublished(PublisherSnapshot(info: aliceNew, streams: aliceStreams)))
        trace.render("carol", .participantDidJoin(aliceOld))
        let found = check(trace)
        #expect(found.map(\.eventIndex) == [6])
    }

    // MARK: VIS-3

    @Test("VIS-3: an older observer's event mid-episode showing the changed userId is a violation", arguments: ["carol", "dave", "comp"])
    func olderObserverSeesChangeMidEpisode(observer: String) throws {
        var trace = TraceBuilder()
        trace.announce(observer)
        trace.deliver(observer, .participantUpdated(aliceNew))
        trace.render(observer, .didChangeMutedStreams(aliceNew, [StageStream(participantId: "alice", kind: .audio, isMuted: true)]))
        let found = check(trace)
        try #require(found.count == 1, "\(found)")
        #expect(found[0].observer == observer)
        #expect(found[0].eventIndex == 3)
        #expect(found[0].rules.contains("VIS-3"))
        #expect(found[0].message.contains("u-old"))
    }

    @Test("VIS-3: a leave event showing the changed userId to a web observer is a violation")
    func olderObserverLeaveWithNewMetadata() {
        var trace = TraceBuilder()
        trace.announce("carol")
        trace.deliver("carol", .participantUpdated(aliceNew))
        trace.deliver("carol", .participantLeft(participantId: "alice"))
        trace.render("carol", .participantDidLeave(aliceNew))
        #expect(check(trace).map(\.eventIndex) == [4])
    }

    // MARK: VIS-3/VIS-4 liveness

    @Test("VIS-3: a mobile 1.37.0 observer that renders no metadata event before its next delivery is a violation")
    func missingMetadataEventBeforeNextDelivery() throws {
        var trace = TraceBuilder()
        trace.announce("bob")
        trace.deliver("bob", .participantUpdated(aliceNew))
        trace.deliver("bob", .subscribeAccepted(publisherId: "alice"))
        let found = check(trace, finish: false)
        try #require(found.count == 1, "\(found)")
        #expect(found[0].observer == "bob")
        #expect(found[0].eventIndex == 3, "flagged at the next delivery")
        #expect(found[0].time == trace.events[2].time, "dated by the update that was not rendered")
        #expect(found[0].message.contains("no participantMetadataDidUpdate"))
        #expect(check(trace, finish: true).count == 1, "reported once, not again at finish")
    }

    @Test("VIS-4: a mobile 1.37.0 observer that shows the update only at the republish's join is a violation")
    func mobileSeesUpdateOnlyAtRepublish() {
        var trace = TraceBuilder()
        trace.announce("bob")
        trace.deliver("bob", .participantUpdated(aliceNew))
        trace.deliver("bob", .participantUnpublished(participantId: "alice"))
        trace.render("bob", .participantDidLeave(aliceOld))
        trace.announce("bob", aliceNew)
        #expect(check(trace).map(\.eventIndex) == [3], "flagged when the unpublish arrives with the update unrendered")
    }

    @Test("VIS-3: an update still owed to a mobile 1.37.0 observer at the end of the run is a violation")
    func missingMetadataEventAtFinish() throws {
        var trace = TraceBuilder()
        trace.announce("bob")
        trace.deliver("bob", .participantUpdated(aliceNew))
        #expect(check(trace, finish: false).isEmpty)
        let found = check(trace, finish: true)
        try #require(found.count == 1, "\(found)")
        #expect(found[0].eventIndex == nil)
        #expect(found[0].observer == "bob")
        #expect(found[0].message.contains("no participantMetadataDidUpdate"))
        var monitor = VisibilityMonitor()
        let world = observerWorld()
        for (index, event) in trace.events.enumerated() { _ = monitor.observe(event, index: index, world: world) }
        #expect(monitor.finish(world: world).count == 1)
    }

    @Test("an update that changes nothing a 1.37.0 observer shows owes no metadata event")
    func unchangedUpdateOwesNothing() {
        var trace = TraceBuilder()
        trace.announce("bob")
        trace.deliver("bob", .participantUpdated(aliceOld))
        trace.deliver("bob", .subscribeAccepted(publisherId: "alice"))
        #expect(check(trace).isEmpty)
    }
}
