import Checking
import Drivers
import Signaling
import Simulation
import StageCore
@testable import StageWorld
import Testing

/// Issue 13, point 5: a join whose connect frame the stage service cannot read gets no answer
/// at all. Past the scenario loader (which refuses such metadata), the SDK still ends it as
/// STG-3 says: FAILED once the retry window is spent, with its default policy or a set one.
@Suite("A join the service cannot read ends FAILED (STG-3)")
struct UnansweredJoinTests {
    /// Metadata that puts the connect frame one level past the service's JSON depth limit.
    private var unreadableMetadata: JSONValue {
        (1..<JSONValue.maximumDepth).reduce(JSONValue.object(["k": "x"])) { inner, _ in .object(["k": inner]) }
    }

    private func run(joinRetry: JoinRetryPolicy) -> MonitoredRun {
        var client = ClientConfig(name: "alice", sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(signedToken("alice")), strategy: StrategySpec(), joinRetry: joinRetry)
        client.connectMetadata = ConnectMetadata(metadata: unreadableMetadata)
        var world = World(stageId: "stage-1", clients: [client], links: [:], defaultLink: LinkConditions(), seed: 1)
        world.scheduleHostCall(.join, clientIndex: 0, at: .zero)
        return MonitoredRun(world: world, seed: 1, until: .seconds(45))
    }

    private func failures(_ run: MonitoredRun) -> [VirtualTime] {
        run.trace.events.filter { $0.rendererEvent == .connectionStateChanged(.disconnected, StageError(code: .failed, category: .join, isFatal: true)) }.map(\.time)
    }

    private func refusedConnects(_ run: MonitoredRun) -> [VirtualTime] {
        run.trace.events.compactMap { event in
            guard event.observer == "server", case .protocolError(let frame, _) = event.kind, frame.hasPrefix(#"{"type":"connect""#) else { return nil }
            return event.time
        }
    }

    @Test("without joinRetry set, every attempt is refused and FAILED comes at the default 30 s window")
    func defaultPolicy() {
        let run = run(joinRetry: JoinRetryPolicy())
        #expect(refusedConnects(run) == [0, 5, 10, 15, 20, 25].map { VirtualTime.milliseconds($0 * 1_000 + 20) })
        #expect(failures(run) == [.seconds(30)])
        #expect(run.finalWorld.clients[0].view.local.connectionState == .disconnected)
        #expect(run.violations.isEmpty, "\(run.violations)")
    }

    @Test("with joinRetry set, FAILED comes when its window is spent")
    func configuredPolicy() {
        let run = run(joinRetry: JoinRetryPolicy(attemptTimeout: .seconds(2), window: .seconds(9)))
        #expect(refusedConnects(run).count == 5)
        #expect(failures(run) == [.seconds(9)])
        #expect(run.violations.isEmpty, "\(run.violations)")
    }
}
