@testable import Drivers
import Scenario
import Simulation
@testable import StageWorld
import Testing

/// A timer that can no longer do anything is cancelled at once (issue 15): the watchdog a ping
/// re-armed, the timer of an answered join, the keepalive of a closed connection. Such timers
/// used to stay pending, keyed by their remaining time and fired by the checker as clock ticks.
@Suite("Spent timers are cancelled")
struct SpentTimerTests {
    /// Whether a pending timer would change anything if it fired now.
    static func isLive(_ event: PendingEvent, in world: World) -> Bool {
        switch event {
        case .timer(let index, let timer): return world.clients[index].isLive(timer)
        case .serverTimer(let timer):
            return timer.isLive(for: world.server.index(ofClient: timer.clientIndex).map { world.server.participants[$0] })
        case .delivery, .hostCall: return true
        }
    }

    @Test("along random walks through every bundled scenario, every pending timer is live after every step", arguments: IncrementalFingerprintTests.scenarioPaths)
    func noSpentTimerStaysPending(path: String) throws {
        let scenario = try ScenarioLoader.load(path: path)
        for walk in 0..<2 as Range<UInt64> {
            var world = scenario.makeWorld(seed: scenario.seed)
            world.timekeeping = walk % 2 == 0 ? .everyEvent : .timersOnly
            var random = SplitMix64(seed: walk)
            for step in 0..<150 {
                let actions = world.enabledActions()
                guard !actions.isEmpty else { break }
                let action = actions[Int(random.next() % UInt64(actions.count))]
                _ = world.apply(action)
                let spent = world.pending.entries.filter { !Self.isLive($0.payload, in: world) }.map(\.payload)
                try #require(spent.isEmpty, "walk \(walk), step \(step), \(action): \(spent)")
            }
        }
    }

    /// The first enabled delivery or host call, else the first timer: messages arrive before
    /// any deadline, so the client stays connected.
    static func deliveryFirst(_ actions: [Action], in world: World) -> Action? {
        actions.first { action in
            guard case .fire(let sequence) = action, let event = world.pending.entry(sequence: sequence)?.payload else { return false }
            return !event.isTimer
        } ?? actions.first
    }

    @Test("an answered join leaves no join timer, and each ping leaves one watchdog pending")
    func answeredJoinAndRearmedWatchdog() throws {
        var world = try TimerOrderTests.checkerWorld(TimerOrderTests.keepaliveOnly, steps: 0)
        var pingsHeard = 0
        while pingsHeard < 3, let action = Self.deliveryFirst(world.enabledActions(), in: world) {
            _ = world.apply(action)
            pingsHeard = world.clients[0].pingsHeard
            let timers = world.pending.entries.compactMap { entry -> ClientTimer? in
                guard case .timer(_, let timer) = entry.payload else { return nil }
                return timer
            }
            guard world.clients[0].view.local.connectionState == .connected else { continue }
            #expect(!timers.contains { if case .joinAttemptTimeout = $0 { true } else { false } })
            #expect(timers.filter { if case .pingWatchdog = $0 { true } else { false } }.count == 1, "\(timers)")
        }
        #expect(pingsHeard == 3)
    }
}
