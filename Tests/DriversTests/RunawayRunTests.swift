import Checking
@testable import Drivers
@testable import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// Event storms (issue 13, point 4): durations that schedule repeating work have minimums the
/// loader enforces, and a run that still needs too many events stops with a failure naming
/// the runaway source instead of hanging.
@Suite("Event storms: minimums and the event budget")
struct RunawayRunTests {
    private func error(_ text: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(text, path: "storm.yaml")
            return nil
        } catch {
            return error as? ScenarioError
        }
    }

    /// alice joins at 0 s and is cut off from 1 s to 30 s; `settings` go at the top level and
    /// `participantSettings` on alice.
    private func scenario(_ settings: String = "", participant participantSettings: String = "") -> String {
        """
        name: storm
        \(settings)
        faults:
          - {partition: alice, from: 1s, to: 30s}
        participants:
          - name: alice
            \(participantSettings)
        steps:
          - {at: 0s, participant: alice, call: join}

        """
    }

    @Test("the issue's join storm is refused at the value, naming the key and its minimum")
    func joinStormIsRefused() {
        let found = error(scenario(participant: "joinRetry: {attemptTimeout: 1ns, window: 30s}"))
        #expect(found.map { [$0.line, $0.column] } == [7, 33])
        #expect(found?.message == "joinRetry attemptTimeout 1ns is shorter than its minimum of 100ms: it schedules repeating work, and a run could not simulate that many events")
    }

    @Test("the issue's retransmission storm under a partition is refused at the value")
    func retransmissionStormIsRefused() {
        let found = error(scenario("network: {retransmit: 1ns}"))
        #expect(found.map { [$0.line, $0.column] } == [2, 23])
        #expect(found?.message.hasPrefix("network retransmit 1ns is shorter than its minimum of 10ms") == true)
    }

    @Test("every duration that schedules repeating work has a minimum: below it is refused, at it loads", arguments: [
        ("keepalive: {pingInterval: %@}", "", RepeatingWorkMinimums.pingInterval),
        ("keepalive: {pongTimeout: %@}", "", RepeatingWorkMinimums.pongTimeout),
        ("network: {retransmit: %@}", "", RepeatingWorkMinimums.retransmissionTimeout),
        ("", "network: {retransmit: %@}", RepeatingWorkMinimums.retransmissionTimeout),
        ("", "joinRetry: {attemptTimeout: %@}", RepeatingWorkMinimums.joinAttemptTimeout),
        ("", "reconnect: {backoff: %@}", RepeatingWorkMinimums.reconnectBackoff),
        ("", "reconnect: {cap: %@}", RepeatingWorkMinimums.reconnectBackoff),
    ])
    func minimums(top: String, participant: String, minimum: VirtualDuration) {
        func text(_ value: VirtualDuration) -> String {
            scenario(top.replacingOccurrences(of: "%@", with: value.description), participant: participant.replacingOccurrences(of: "%@", with: value.description))
        }
        let shorter = VirtualDuration(nanoseconds: minimum.nanoseconds - 1)
        #expect(error(text(shorter))?.message.contains("is shorter than its minimum of \(minimum)") == true)
        #expect(error(text(minimum)) == nil)
    }

    /// The issue's join storm built in Swift, past the loader: only the event budget stops it.
    private var joinStorm: Scenario {
        let alice = ParticipantSpec(ClientConfig(
            name: "alice", sdk: .mobile(SemanticVersion(1, 37, 0)), token: .signed(StageKeys.claims(participantId: "alice", stageId: "stage-1"), by: .app),
            joinRetry: JoinRetryPolicy(attemptTimeout: VirtualDuration(nanoseconds: 1), window: .seconds(30))
        ))
        return Scenario(
            path: "storm", name: "join storm", covers: [], seed: 1, duration: .seconds(30), stageId: "stage-1", network: LinkConditions(),
            faults: FaultPlan(partitions: [Partition(clientName: nil, direction: .both, start: .zero, end: .seconds(60))]),
            keepalive: KeepalivePolicy(), settle: .seconds(5), injections: [], participants: [alice],
            steps: [ScenarioStep(at: .zero, participant: "alice", call: .join, line: 1)], expectations: []
        )
    }

    @Test("a join storm past the loader stops at the event budget with a failure naming alice's join attempt timer")
    func joinStormStopsAtBudget() {
        let run = ScenarioRunner.run(joinStorm)
        let violation = run.violations.first
        #expect(run.violations.count == 1, "no end-of-run check judges a run cut short")
        #expect(violation?.invariant == ScenarioRunner.eventBudgetInvariant)
        #expect(violation?.observer == "alice")
        #expect(violation?.message.contains("event budget of \(joinStorm.runEventBudget.maximumActions) actions") == true)
        #expect(violation?.message.contains("the busiest sources: alice's join attempt timer (joinRetry.attemptTimeout): ") == true)
    }

    @Test("a retransmission storm past the loader names alice's link; the stop is reproducible")
    func retransmissionStormStopsAtBudget() {
        var storm = joinStorm
        storm.participants[0].config.joinRetry = JoinRetryPolicy()
        storm.network.retransmissionTimeout = VirtualDuration(nanoseconds: 1)
        storm.network.latencyMean = .zero
        storm.eventBudget = EventBudget(maximumActions: 20_000)
        let first = ScenarioRunner.run(storm)
        #expect(first.violations.map(\.invariant) == [ScenarioRunner.eventBudgetInvariant])
        #expect(first.violations.first?.message.contains("the busiest sources: alice's uplink") == true)
        #expect(ScenarioRunner.run(storm).traceHash == first.traceHash)
    }

    @Test("eventBudget in the file sets the budget; an ordinary scenario under the standard one passes")
    func budgetFromFile() throws {
        let quiet = try ScenarioLoader.parse(scenario(), path: "quiet.yaml")
        #expect(quiet.runEventBudget == EventBudget.standard(participants: 1, duration: .seconds(30)))
        #expect(ScenarioRunner.run(quiet).passed)
        let tight = try ScenarioLoader.parse(scenario("eventBudget: 5"), path: "tight.yaml")
        #expect(tight.runEventBudget == EventBudget(maximumActions: 5))
        #expect(ScenarioRunner.run(tight).violations.map(\.invariant) == [ScenarioRunner.eventBudgetInvariant])
        #expect(error(scenario("eventBudget: 0"))?.message == "eventBudget must be a whole number in 1...1000000000")
    }
}
