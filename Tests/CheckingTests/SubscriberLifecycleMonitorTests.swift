import Checking
import Simulation
import StageCore
import SubscriberModel
import Testing
@testable import StageWorld

/// SUB-2, SUB-3: the lifecycle monitor follows one subscriber object. A second
/// `subscriberDidConnectToStream` from the same subscriber is a violation; one from the next
/// subscriber to the same stream (a subscribe after an unsubscribe) starts its own lifecycle.
@Suite("Subscriber lifecycle: one lifecycle per subscriber object")
struct SubscriberLifecycleMonitorTests {
    private let world = World(
        stageId: "stage-1",
        clients: ["host", "viewer"].map { name in
            ClientConfig(name: name, sdk: .mobile(SemanticVersion(1, 37, 0)), token: .signed(StageKeys.claims(participantId: name, stageId: "stage-1"), by: .app), strategy: StrategySpec())
        },
        links: [:], defaultLink: LinkConditions(), seed: 1
    )

    private func connect(subscriber: Int, at milliseconds: UInt64) -> TraceEvent {
        let event = SubscriberTraceEvent(publisherId: "host", streamId: "host-1", event: .subscriberDidConnectToStream, subscriber: subscriber)
        return TraceEvent(time: .milliseconds(milliseconds), observer: "viewer", kind: .subscriber(event))
    }

    @Test("a new subscriber to the same stream connects anew; the same one may not")
    func newSubscriberConnectsAgain() {
        var monitor = SubscriberLifecycleMonitor()
        #expect(monitor.observe(connect(subscriber: 1, at: 1), index: 0, world: world).isEmpty)
        #expect(monitor.observe(connect(subscriber: 2, at: 2), index: 1, world: world).isEmpty)
        let again = monitor.observe(connect(subscriber: 2, at: 3), index: 2, world: world)
        #expect(again.count == 1)
        #expect(again.first?.message.contains("second subscriberDidConnectToStream") == true)
    }

    private func destroyed(_ reason: StreamDestroyedReason, at milliseconds: UInt64) -> TraceEvent {
        let stream = OpenTokStream(streamId: "host-1", connectionId: "host")
        let event = SubscriberTraceEvent(publisherId: "host", streamId: "host-1", event: .streamDestroyed(stream, reason: reason))
        return TraceEvent(time: .milliseconds(milliseconds), observer: "viewer", kind: .subscriber(event))
    }

    private func disconnect(at milliseconds: UInt64) -> TraceEvent {
        let event = SubscriberTraceEvent(publisherId: "host", streamId: "host-1", event: .subscriberDidDisconnectFromStream)
        return TraceEvent(time: .milliseconds(milliseconds), observer: "viewer", kind: .subscriber(event))
    }

    /// The viewer's world after its dropped subscriber to host-1 ended: destroyed with its
    /// stream (`destroy`), or unsubscribed before the stream left.
    private func world(subscriberEndedBy destroy: Bool) -> World {
        var state = SubscriberState(stream: OpenTokStream(streamId: "host-1", connectionId: "host"))
        state.subscribe(at: 0)
        state.mediaStarted(at: 1)
        state.mediaDropped(at: 2)
        if destroy { state.restoreFailed() } else { state.unsubscribe() }
        var world = world
        world.clients[1].subscribers = [SubscriberSlot(publisherId: "host", announcement: 1, state: state)]
        return world
    }

    @Test("SUB-4: a stream that cannot be restored is destroyed with networkDisconnected, and only then")
    func restoreFailedReason() {
        let ended = world(subscriberEndedBy: true)
        var monitor = SubscriberLifecycleMonitor()
        #expect(monitor.observe(connect(subscriber: 1, at: 1), index: 0, world: ended).isEmpty)
        #expect(monitor.observe(disconnect(at: 2), index: 1, world: ended).isEmpty)
        let wrong = monitor.observe(destroyed(.clientDisconnected, at: 3), index: 2, world: ended)
        #expect(wrong.count == 1)
        #expect(wrong.first?.message.contains("its reason is networkDisconnected") == true)

        var restored = SubscriberLifecycleMonitor()
        _ = restored.observe(connect(subscriber: 1, at: 1), index: 0, world: ended)
        _ = restored.observe(disconnect(at: 2), index: 1, world: ended)
        #expect(restored.observe(destroyed(.networkDisconnected, at: 3), index: 2, world: ended).isEmpty)

        var connected = SubscriberLifecycleMonitor()
        _ = connected.observe(connect(subscriber: 1, at: 1), index: 0, world: ended)
        let early = connected.observe(destroyed(.networkDisconnected, at: 3), index: 1, world: ended)
        #expect(early.first?.message.contains("its reason is clientDisconnected") == true)
    }

    @Test("SUB-3: a stream leaving after its subscriber was unsubscribed is the session's report, with any reason")
    func unsubscribedBeforeTheStreamLeft() {
        let unsubscribed = world(subscriberEndedBy: false)
        var monitor = SubscriberLifecycleMonitor()
        _ = monitor.observe(connect(subscriber: 1, at: 1), index: 0, world: unsubscribed)
        _ = monitor.observe(disconnect(at: 2), index: 1, world: unsubscribed)
        #expect(monitor.observe(destroyed(.clientDisconnected, at: 3), index: 2, world: unsubscribed).isEmpty)
    }
}
