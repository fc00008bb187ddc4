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
}
