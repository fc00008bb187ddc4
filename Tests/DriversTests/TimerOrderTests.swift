import Checking
@testable import Drivers
import Scenario
import Simulation
@testable import StageWorld
import Testing

/// The checker's time (issue 15): timers fire in due order among themselves and only they
/// move the clock, the key holds each pending timer's remaining time and not the clock, and
/// with that a keepalive model's state space is finite.
@Suite("Timers in due order")
struct TimerOrderTests {
    /// One participant with keepalive on and nothing else to do: pings, pongs, watchdogs and
    /// one reconnect attempt per lost connection, forever. Infinite under the old abstraction
    /// (timers in any order), finite now: 154 states (219 with the default 8 reconnect
    /// attempts; 15,838 and 458,878 before spent timers were cancelled).
    static let keepaliveOnly = """
        name: keepalive only
        keepalive: {pingInterval: 2s, pongTimeout: 2s}
        duration: 20s
        participants:
          - {name: solo, capabilities: [publish, subscribe], strategy: {publish: false}, joinRetry: {attemptTimeout: 30s, window: 30s}, reconnect: {backoff: 1s, multiplier: 1, cap: 1s, attempts: 1}}
        steps:
          - {at: 0s, participant: solo, call: join}
        """

    /// A world of the checker's (`timersOnly`) after the scenario's first `steps` enabled
    /// actions, always the first one.
    static func checkerWorld(_ text: String, steps: Int) throws -> World {
        let scenario = try ScenarioLoader.parse(text, path: "k.yaml").forChecking
        var world = scenario.makeWorld(seed: scenario.seed)
        world.timekeeping = .timersOnly
        for _ in 0..<steps {
            guard let action = world.enabledActions().first else { break }
            _ = world.apply(action)
        }
        return world
    }

    static func timerDues(_ world: World) -> [VirtualTime] {
        world.pending.entries.filter { $0.payload.isTimer }.map(\.due)
    }

    @Test("in the checker's worlds only the timers due first are enabled, firing one moves the clock to it, and the clock never passes a pending timer")
    func dueOrder() throws {
        let scenario = try checkScenario("reconnect")
        for walk in 0..<4 as Range<UInt64> {
            var world = scenario.makeWorld(seed: scenario.seed)
            world.timekeeping = .timersOnly
            var random = SplitMix64(seed: walk)
            for step in 0..<200 {
                let actions = world.enabledActions()
                guard !actions.isEmpty else { break }
                let first = Self.timerDues(world).min()
                for case .fire(let sequence) in actions {
                    let entry = try #require(world.pending.entry(sequence: sequence))
                    if entry.payload.isTimer { #expect(entry.due == first, "walk \(walk), step \(step)") }
                }
                let action = actions[Int(random.next() % UInt64(actions.count))]
                let fired: EventQueue<PendingEvent>.Entry? = if case .fire(let sequence) = action { world.pending.entry(sequence: sequence) } else { nil }
                let before = world.now
                _ = world.apply(action)
                if let fired, fired.payload.isTimer {
                    #expect(world.now == fired.due)
                } else {
                    #expect(world.now == before, "walk \(walk), step \(step): \(action) moved the clock")
                }
                #expect(Self.timerDues(world).allSatisfy { $0 >= world.now }, "walk \(walk), step \(step): the clock passed a timer")
            }
        }
    }

    @Test("the service's ping timer cannot fire again before the pong deadline it set")
    func pingWaitsForItsDeadline() throws {
        var world = try Self.checkerWorld(Self.keepaliveOnly, steps: 0)
        var pingsFired = 0
        for _ in 0..<12 {
            let actions = world.enabledActions()
            let ping = actions.first { action in
                guard case .fire(let sequence) = action, case .serverTimer(.ping) = world.pending.entry(sequence: sequence)?.payload else { return false }
                return true
            }
            let deadlineDue = world.pending.entries.compactMap { entry -> VirtualTime? in
                guard case .serverTimer(.pongDeadline) = entry.payload else { return nil }
                return entry.due
            }.min()
            if let ping, case .fire(let sequence) = ping, let deadlineDue {
                #expect(try #require(world.pending.entry(sequence: sequence)).due <= deadlineDue)
            }
            guard let action = ping ?? actions.first else { break }
            if ping != nil { pingsFired += 1 }
            _ = world.apply(action)
            let owed = world.server.participants.map { $0.pingsSent - $0.pongsHeard }.max() ?? 0
            #expect(owed <= 2, "pings owed: \(owed)")
        }
        #expect(pingsFired >= 2)
    }

    /// `world` with its clock and every due time moved by `shift`, and `extra` added to the due
    /// time of the pending timer `delayed` (by its position among the pending timers).
    static func moved(_ world: World, by shift: VirtualDuration, delaying delayed: Int? = nil, extra: VirtualDuration = .zero) -> World {
        var moved = world
        moved.now = world.now + shift
        moved.pending = PendingEvents()
        var timerPosition = 0
        for entry in world.pending.entries.sorted(by: { $0.sequence < $1.sequence }) {
            var due = entry.due + shift
            if entry.payload.isTimer {
                if timerPosition == delayed { due = due + extra }
                timerPosition += 1
            }
            moved.pending.schedule(entry.payload, at: due)
        }
        return moved
    }

    @Test("two worlds differing only in absolute time are one state; differing in a timer's remaining time, two")
    func keyHoldsRemainingTimes() throws {
        let world = try Self.checkerWorld(Self.keepaliveOnly, steps: 6)
        #expect(Self.timerDues(world).count >= 2)
        let later = Self.moved(world, by: .seconds(7))
        #expect(later.now != world.now)
        #expect(later.fingerprint() == world.fingerprint())
        for timer in Self.timerDues(world).indices {
            let delayed = Self.moved(world, by: .zero, delaying: timer, extra: .milliseconds(500))
            #expect(delayed.fingerprint() != world.fingerprint(), "timer \(timer)")
        }
    }

    @Test("a keepalive model's whole state space is explored: pings owed stay bounded")
    func keepaliveSpaceIsFinite() throws {
        let scenario = try ScenarioLoader.parse(Self.keepaliveOnly, path: "k.yaml").forChecking
        let report = explore(scenario)
        #expect(report.counterexample == nil)
        #expect(report.boundReached == nil, "\(report.boundReached ?? "")")
        #expect(report.distinctStates == 154)
    }

    @Test("a checker counterexample replays with the checker's time, a timed recording with the simulator's")
    func replayKeepsTheCheckersTime() throws {
        let scenario = try ScenarioLoader.parse(Self.keepaliveOnly, path: "k.yaml")
        let world = scenario.makeWorld(seed: scenario.seed)
        #expect(MonitoredRun(world: world, schedule: [], end: .quiescent).finalWorld.timekeeping == .timersOnly)
        #expect(MonitoredRun(world: world, schedule: [], end: .timed).finalWorld.timekeeping == .everyEvent)
    }
}
