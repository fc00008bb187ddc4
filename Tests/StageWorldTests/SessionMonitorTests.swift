import Checking
import Simulation
import StageCore
import Testing
@testable import StageWorld

/// The monitors of this wave fire on a world or trace that breaks their rule and stay quiet on
/// one that keeps it: a live connection (SIG-6), publishing only with the capability at the
/// service (TOK-7), the capacity retry of a refresh (STR-5, STG-4), and remote publish state
/// between join and leave (RND-1).
@Suite("Session monitors (SIG-6, TOK-7, STR-5, RND-1)")
struct SessionMonitorTests {
    /// Two clients joined, published and subscribed, after 10 quiet seconds.
    private func settledWorld() -> World {
        simulate(twoClientWorld(), seed: 5, until: .seconds(10)).0.world
    }

    private func event(_ observer: String, _ kind: TraceEvent.Kind, at time: VirtualTime) -> TraceEvent {
        TraceEvent(time: time, observer: observer, kind: kind)
    }

    /// Alice's watchdog timer is taken away: a pending one, due in time, would excuse her
    /// (the checker's clock may pass it before it fires).
    @Test("a client connected on a connection the service closed is flagged after its watchdog, not before")
    func closedConnectionNoticedInTime() throws {
        let world = settledWorld()
        var monitor = LiveConnectionMonitor()
        let keepalive = event("server", .timerFired(.joinAttemptTimeout(attempt: 1)), at: world.now)
        #expect(monitor.observe(keepalive, index: 0, world: world).isEmpty)
        var closed = world
        let alice = try #require(closed.clientIndex(named: "alice"))
        closed.server.participants.removeAll { $0.clientIndex == alice }
        // The service closed a connection: as `apply` would, the world records it for the
        // monitors, which look again at every client only then (`World.changesSinceTrace`).
        var closing = ChangeRecord()
        closing.insertConnections()
        closed.untraced.add(closing, traced: true)
        closed.pending.removeAll { payload in
            if case .timer(alice, .pingWatchdog) = payload { true } else { false }
        }
        let watchdog = world.config.keepalive.clientWatchdog
        #expect(monitor.observe(event("bob", .timerFired(.joinAttemptTimeout(attempt: 1)), at: world.now), index: 1, world: closed).isEmpty)
        #expect(monitor.observe(event("bob", .timerFired(.joinAttemptTimeout(attempt: 1)), at: world.now + watchdog), index: 2, world: closed).isEmpty)
        let late = monitor.observe(event("bob", .timerFired(.joinAttemptTimeout(attempt: 1)), at: world.now + watchdog + .milliseconds(1)), index: 3, world: closed)
        #expect(late.count == 1 && late[0].observer == "alice")
    }

    @Test("becoming connected on a connection the service does not hold is flagged at once")
    func connectedOnClosedConnection() throws {
        var world = settledWorld()
        let alice = try #require(world.clientIndex(named: "alice"))
        var monitor = LiveConnectionMonitor()
        let connected = event("alice", .renderer(.connectionStateChanged(.connected, nil)), at: world.now)
        #expect(monitor.observe(connected, index: 0, world: world).isEmpty)
        world.server.participants.removeAll { $0.clientIndex == alice }
        #expect(monitor.observe(connected, index: 1, world: world).count == 1)
    }

    @Test("the service holding streams of a participant whose token forbids publishing is flagged")
    func serviceEnforcesPublishCapability() throws {
        var world = settledWorld()
        var monitor = PublishCapabilityMonitor()
        let serviceEvent = event("server", .service(.metadataUpdated(world.server.participants[0].info)), at: world.now)
        #expect(monitor.observe(serviceEvent, index: 0, world: world).isEmpty)
        let publisher = try #require(world.server.participants.firstIndex { !$0.publishedStreams.isEmpty })
        world.server.participants[publisher].info.capabilities = Capabilities(canPublish: false, canSubscribe: true)
        #expect(monitor.observe(serviceEvent, index: 1, world: world).count == 1)
    }

    @Test("an unchanged refresh may retry an errored publish and nothing else")
    func capacityRetry() {
        let world = settledWorld()
        let local = ParticipantInfo(participantId: "alice", userId: "", isLocal: true, attributes: [:], capabilities: Capabilities())
        let unchanged = StrategyQueryReport(canPublish: true)
        func run(_ kinds: [TraceEvent.Kind]) -> [Violation] {
            var monitor = SilentRefreshMonitor()
            return kinds.enumerated().flatMap { monitor.observe(event("alice", $0.element, at: .zero), index: $0.offset, world: world) }
        }
        let errored = TraceEvent.Kind.renderer(.publishStateChanged(local, .errored, StageError(code: .stageAtCapacity, category: .publish, isFatal: false)))
        let retry = TraceEvent.Kind.renderer(.publishStateChanged(local, .attemptingPublish, nil))
        #expect(run([errored, .hostCall(.refreshStrategy), .strategyQueried(unchanged), retry]).isEmpty)
        #expect(run([.hostCall(.refreshStrategy), .strategyQueried(unchanged), retry]).count == 1, "no errored publish: the event is not a retry")
        #expect(run([errored, .hostCall(.refreshStrategy), .strategyQueried(unchanged), retry, retry]).count == 1, "one retry only")
    }

    @Test("a remote must be published right after its join and unpublished before its leave")
    func remotePublishState() {
        let world = settledWorld()
        let bob = ParticipantInfo(participantId: "bob", userId: "", isLocal: false, attributes: [:], capabilities: Capabilities())
        func run(_ renderer: [RendererEvent]) -> [Violation] {
            var monitor = JoinLeaveOrderMonitor()
            return renderer.enumerated().flatMap { monitor.observe(event("alice", .renderer($0.element), at: .zero), index: $0.offset, world: world) }
        }
        let join = RendererEvent.participantDidJoin(bob), leave = RendererEvent.participantDidLeave(bob)
        let published = RendererEvent.publishStateChanged(bob, .published, nil), unpublished = RendererEvent.publishStateChanged(bob, .notPublished, nil)
        let subscribing = RendererEvent.subscribeStateChanged(bob, .attemptingSubscribe, nil)
        #expect(run([join, published, subscribing, unpublished, leave]).isEmpty)
        #expect(run([join, subscribing, published, unpublished, leave]).count == 1, "published must come first")
        #expect(run([join, published, leave]).count == 1, "leave while still published")
    }

    @Test("every publishState event, local or remote, reports a state other than the last one reported")
    func publishStateChanges() {
        let world = settledWorld()
        let alice = ParticipantInfo(participantId: "alice", userId: "", isLocal: true, attributes: [:], capabilities: Capabilities())
        let bob = ParticipantInfo(participantId: "bob", userId: "", isLocal: false, attributes: [:], capabilities: Capabilities())
        func run(_ renderer: [RendererEvent]) -> [Violation] {
            var monitor = JoinLeaveOrderMonitor()
            return renderer.enumerated().flatMap { monitor.observe(event("alice", .renderer($0.element), at: .zero), index: $0.offset, world: world) }
        }
        func state(_ who: ParticipantInfo, _ state: PublishState) -> RendererEvent { .publishStateChanged(who, state, nil) }
        let join = RendererEvent.participantDidJoin(alice), leave = RendererEvent.participantDidLeave(alice)
        #expect(run([join, state(alice, .attemptingPublish), state(alice, .published), state(alice, .notPublished), leave]).isEmpty)
        #expect(run([join, state(alice, .notPublished), leave]).count == 1, "notPublished before any publish")
        #expect(run([join, state(alice, .attemptingPublish), state(alice, .notPublished), state(alice, .notPublished), leave]).count == 1, "a second notPublished at leave")
        #expect(run([join, state(alice, .attemptingPublish), state(alice, .attemptingPublish), leave]).count == 1)
        let bobJoin = RendererEvent.participantDidJoin(bob), bobLeave = RendererEvent.participantDidLeave(bob)
        #expect(run([bobJoin, state(bob, .published), state(bob, .notPublished), bobLeave, bobJoin, state(bob, .published)]).isEmpty, "a republish after a leave")
        #expect(run([bobJoin, state(bob, .published), state(bob, .published)]).count == 1)
    }

    @Test("a publisher dropped at once for an unanswered ping is flagged while the grace is on, not without it")
    func publisherDrop() {
        func run(grace: VirtualDuration, wasPublishing: Bool, reason: String) -> [Violation] {
            let world = World(stageId: "stage-1", clients: [], links: [:], defaultLink: LinkConditions(), seed: 5, keepalive: KeepalivePolicy(reconnectGrace: grace))
            var monitor = PublisherDropMonitor()
            let kinds: [TraceEvent.Kind] = [.service(.left(participantId: "bob", wasPublishing: wasPublishing)), .service(.ejected(participantId: "bob", reason: reason))]
            return kinds.enumerated().flatMap { monitor.observe(event("server", $0.element, at: .zero), index: $0.offset, world: world) }
        }
        #expect(run(grace: .seconds(30), wasPublishing: true, reason: "ping 3 unanswered").count == 1)
        #expect(run(grace: .zero, wasPublishing: true, reason: "ping 3 unanswered").isEmpty)
        #expect(run(grace: .seconds(30), wasPublishing: false, reason: "ping 3 unanswered").isEmpty)
        #expect(run(grace: .seconds(30), wasPublishing: true, reason: "not back within the reconnect grace period").isEmpty)
    }
}
