import Checking
@testable import Drivers
@testable import Scenario
import StageWorld
import Testing

/// Schedules: the model checker's counterexamples as scenario files that `stagesim run`
/// replays action by action.
@Suite("Schedules and counterexample files")
struct ScheduleTests {
    let base = """
    # a comment that stays
    name: x
    covers: [STG-1]
    faults:
      - {partition: alice, from: 1s, to: 2s}
    participants:
      - name: alice
    steps:
      - {at: 0s, participant: alice, call: join}
    expect:
      - {event: participantDidJoin, observer: alice}

    """

    @Test("a scheduled regression replays as recorded under another seed and under swarm faults")
    func scheduleIgnoresSeedAndSwarm() throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/regressions/seed-1097-views-converge-when-quiet.yaml")
        let recorded = ScenarioRunner.run(scenario)
        #expect(recorded.passed)
        for run in [ScenarioRunner.run(scenario, seed: 1), ScenarioRunner.run(scenario, seed: 1, swarm: true)] {
            #expect(run.seed == scenario.seed && run.swarm == nil)
            #expect(run.trace.hash == recorded.trace.hash, "a scheduled run must not depend on --seed or --swarm")
            #expect(run.violations.isEmpty)
        }
    }

    @Test("a schedule runs exactly its actions; a step that is not enabled is reported at its line")
    func scheduleRuns() throws {
        let scenario = try ScenarioLoader.parse(base, path: "s.yaml")
        let world = scenario.makeWorld(seed: 1)
        let join = try #require(world.enabledActions().first)
        let scheduled = try ScenarioLoader.parse(base.replacingOccurrences(of: "expect:\n  - {event: participantDidJoin, observer: alice}\n", with: "")
            + "schedule:\n  - \(join.scheduleText)\n", path: "s.yaml")
        let run = ScenarioRunner.run(scheduled)
        #expect(run.trace.events.map(\.category) == ["host", "renderer"])
        #expect(run.violations.isEmpty)
        let stale = try ScenarioLoader.parse(base + "schedule: [\(join.scheduleText), fire 999]\n", path: "s.yaml")
        let failed = ScenarioRunner.run(stale)
        #expect(failed.violations.map(\.invariant) == ["schedule-replays"])
        #expect(failed.violations.first?.message.hasPrefix("line 12: 'fire 999' is not pending after 1 steps") == true)
    }

    @Test("a schedule entry that is not an action is an error at its line and column")
    func badEntry() {
        #expect(throws: ScenarioError(file: "s.yaml", line: 14, column: 5, message: "a scheduled action is 'fire <sequence>' or 'drop <sequence>', not 'deliver 3'")) {
            try ScenarioLoader.parse(base + "schedule:\n  - fire 1\n  - deliver 3\n", path: "s.yaml")
        }
    }

    @Test("a counterexample file keeps the scenario, drops expectations, faults and old schedules, and lists the path")
    func counterexampleFile() throws {
        let violation = Violation(invariant: "i", rules: [], time: .zero, observer: "alice", eventIndex: nil, message: "m")
        let counterexample = Counterexample(actions: [.fire(sequence: 0), .drop(sequence: 4)], violation: violation)
        let text = CounterexampleFile.text(original: base + "schedule:\n  - fire 9\n", counterexample: counterexample,
                                           steps: ["alice: join()", "lose alice -> server: join"], header: ["found"])
        #expect(text == """
            # found
            # a comment that stays
            name: x
            covers: [STG-1]
            participants:
              - name: alice
            steps:
              - {at: 0s, participant: alice, call: join}
            schedule:
              - fire 0  # alice: join()
              - drop 4  # lose alice -> server: join

            """)
        #expect(try ScenarioLoader.parse(text, path: "c.yaml").schedule?.map(\.action) == counterexample.actions)
    }

    @Test("the checker's scenario has no partitions, jitter, duplication or reordering")
    func forChecking() throws {
        var scenario = try ScenarioLoader.parse(base, path: "s.yaml")
        scenario.network = LinkConditions(jitterMax: .milliseconds(30), lossProbability: 0.1, duplicationProbability: 0.2, reorderProbability: 0.3)
        let checked = scenario.forChecking
        #expect(checked.faults.partitions.isEmpty)
        #expect(checked.network == LinkConditions(lossProbability: 0.1))
    }
}

/// `keepalive: off`: small models for the checker have no pings and no watchdog (SIG-6 off).
@Suite("Keepalive off")
struct KeepaliveOffTests {
    let text = """
    name: k
    covers: [SIG-6]
    duration: 30s
    keepalive: KEEPALIVE
    participants:
      - name: alice
    steps:
      - {at: 0s, participant: alice, call: join}

    """

    @Test("with keepalive off no ping is sent and no timer stays pending; with it on, pings flow")
    func noPings() throws {
        let off = ScenarioRunner.run(try ScenarioLoader.parse(text.replacingOccurrences(of: "KEEPALIVE", with: "off"), path: "k.yaml"))
        #expect(off.finalWorld.pending.isEmpty)
        #expect(!off.trace.jsonLines.contains(#"\"type\":\"ping\""#))
        let on = ScenarioRunner.run(try ScenarioLoader.parse(text.replacingOccurrences(of: "KEEPALIVE", with: "{pingInterval: 2s, pongTimeout: 2s}"), path: "k.yaml"))
        #expect(on.trace.jsonLines.contains(#"\"type\":\"ping\""#))
    }

    @Test("any other scalar is an error at the value")
    func badValue() {
        #expect(throws: ScenarioError(file: "k.yaml", line: 4, column: 12, message: "keepalive takes a mapping {pingInterval, pongTimeout} or 'off'")) {
            try ScenarioLoader.parse(text.replacingOccurrences(of: "KEEPALIVE", with: "never"), path: "k.yaml")
        }
    }
}
