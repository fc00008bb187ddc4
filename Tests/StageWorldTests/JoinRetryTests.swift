import Simulation
import StageCore
import Testing
@testable import StageWorld

/// STG-3: join attempts, the retry window, FAILED and CANCELED, driven action by action so the
/// network never answers unless a test lets it.
@Suite("Join retry window (STG-3)")
struct JoinRetryTests {
    private func soloWorld(policy: JoinRetryPolicy) -> World {
        let client = ClientConfig(name: "solo", sdk: .web(SemanticVersion(1, 0, 0)), token: .raw(signedToken("solo")), strategy: StrategySpec(), joinRetry: policy)
        var world = World(stageId: "stage-1", clients: [client], links: [:], defaultLink: LinkConditions(), seed: 1)
        world.scheduleHostCall(.join, clientIndex: 0, at: .zero)
        return world
    }

    private func sequences(_ world: World, where matches: (PendingEvent) -> Bool) -> [UInt64] {
        world.pending.entries.filter { matches($0.payload) }.map(\.sequence)
    }

    private func isTimer(_ event: PendingEvent) -> Bool {
        if case .timer = event { return true }
        return false
    }

    private func isJoin(_ event: PendingEvent) -> Bool {
        if case .delivery(let envelope) = event, case .success(.join) = envelope.decoded() { return true }
        return false
    }

    @Test("an unanswered join is sent again every attempt timeout, then FAILED at the window")
    func failsAfterWindow() {
        var world = soloWorld(policy: JoinRetryPolicy(attemptTimeout: .seconds(2), window: .seconds(10)))
        var events = world.apply(.fire(sequence: 0))
        while let timer = sequences(world, where: isTimer).first {
            events += world.apply(.fire(sequence: timer))
        }
        #expect(world.clients[0].epoch == 5, "one connection per attempt")
        #expect(sequences(world, where: isJoin).count == 1, "older attempts' joins are abandoned with their connections")
        let failures = events.filter { $0.rendererEvent == .connectionStateChanged(.disconnected, StageError(code: .failed, category: .join, isFatal: true)) }
        #expect(failures.map(\.time) == [.seconds(10)])
        #expect(world.clients[0].view.local.connectionState == .disconnected)
        #expect(world.clients[0].joinAttempt == nil)
    }

    @Test("the last attempt waits only for what is left of the window")
    func lastAttemptIsClipped() {
        var world = soloWorld(policy: JoinRetryPolicy(attemptTimeout: .seconds(4), window: .seconds(10)))
        _ = world.apply(.fire(sequence: 0))
        var firedAt: [VirtualTime] = []
        while let timer = sequences(world, where: isTimer).first {
            _ = world.apply(.fire(sequence: timer))
            firedAt.append(world.now)
        }
        #expect(firedAt == [.seconds(4), .seconds(8), .seconds(10)])
    }

    @Test("an answer within the window connects, and cancels the attempt timer")
    func answerStopsRetries() {
        var world = soloWorld(policy: JoinRetryPolicy())
        _ = world.apply(.fire(sequence: 0))
        let join = sequences(world, where: isJoin)[0]
        _ = world.apply(.fire(sequence: join))
        let reply = world.pending.sortedEntries.first { !isTimer($0.payload) }!.sequence
        _ = world.apply(.fire(sequence: reply))
        #expect(world.clients[0].view.local.connectionState == .connected)
        #expect(!world.pending.entries.contains { if case .timer(_, .joinAttemptTimeout) = $0.payload { true } else { false } })
    }

    @Test("a retried join is answered again without announcing the participant twice (others hear a reconnect, NET-3)")
    func retriedJoinIsIdempotent() {
        var server = StageServer(config: WorldConfig(stageId: "stage-1", clients: []))
        _ = server.handle(.join(token: signedToken("a")), from: 0, epoch: 1, now: .zero)
        let first = server.handle(.join(token: signedToken("b")), from: 1, epoch: 1, now: .zero)
        let again = server.handle(.join(token: signedToken("b")), from: 1, epoch: 1, now: .seconds(5))
        #expect(first.outgoing.count == 2)
        #expect(again.outgoing.map(\.clientIndex) == [1, 0])
        #expect(again.outgoing.map(\.message).last.map { if case .participantReconnected = $0 { true } else { false } } == true)
        #expect(server.participants.count == 2)
    }

    @Test("join() during a join cancels the attempt in progress and opens a new window")
    func overlappingJoinCancels() {
        var world = soloWorld(policy: JoinRetryPolicy())
        world.scheduleHostCall(.join, clientIndex: 0, at: .seconds(1))
        _ = world.apply(.fire(sequence: 0))
        let second = world.pending.sortedEntries.first { if case .hostCall = $0.payload { true } else { false } }!.sequence
        let events = world.apply(.fire(sequence: second))
        #expect(events.compactMap(\.rendererEvent) == [.connectionStateChanged(.connecting, StageError(code: .canceled, category: .join, isFatal: false))])
        #expect(world.clients[0].joinAttempt == JoinAttempt(number: 2, firstAttemptAt: .seconds(1)))
    }
}
