import Checking
@testable import Drivers
import Foundation
import Scenario
import StageCore
import StageWorld
import Testing

/// The tests of the tests (issue 6), in process: every deliberate bug a debug build can switch
/// on is caught by the fuzzer within a fixed seed budget and by the model checker in a small
/// check scenario. A mutant is a task-local, so it is on only inside the test that binds it.
@Suite("Mutants are killed", .enabled(if: Mutants.areAvailable, "mutants exist in debug builds only"))
struct MutantTests {
    @Test("there are at least 15 mutants")
    func enoughMutants() {
        #expect(Mutant.allCases.count >= 15)
    }

    /// The most steps a shrunk counterexample may keep. Mutants whose failures need a lost
    /// retransmission at the right moment shrink less far: every link draws from one network
    /// PRNG stream, so removing a participant re-draws the losses of the others (see the README's
    /// mutant section).
    static func shrinkBound(_ mutant: Mutant) -> Int {
        mutant == .framesOutliveClosedConnection ? 20 : 15
    }

    @Test("fuzz kills the mutant within 300 seeds, shrinks it to at most 15 steps (20 for loss-timed ones), and its schedule replays to the same violation",
          arguments: Mutant.allCases)
    func killedByFuzz(mutant: Mutant) throws {
        let failure = try #require(Mutants.withMutant(mutant) {
            (UInt64(1)...300).lazy.compactMap { Fuzzer.check(seed: $0, generator: ScenarioGenerator()) }.first
        }, "mutant \(mutant.rawValue) survived 300 seeds")
        #expect(failure.shrunk.steps.count <= Self.shrinkBound(mutant), "mutant \(mutant.rawValue): \(failure.shrunk.steps.count) steps")
        let schedule = try #require(failure.schedule)
        let text = Mutants.withMutant(mutant) {
            RegressionFile.text(original: failure.shrunk.yaml, world: failure.shrunk.scenario().makeWorld(seed: failure.seed), actions: schedule)
        }
        let file = try ScenarioLoader.parse(text, path: "regression.yaml")
        let replay = Mutants.withMutant(mutant) { ScenarioRunner.run(file) }
        #expect(replay.violations.contains { $0.invariant == failure.violation.invariant }, "\(replay.violations)")
    }

    /// Each mutant, the check scenario that reaches it and the invariant that catches it.
    static let checked: [(mutant: Mutant, scenario: String, invariant: String)] = [
        (.keepStreamsAfterLeave, "two-peers-lossy", "streams-added-once-removed-once"),
        (.metadataEventToOldSDKs, "exchange-capabilities", "metadata-visibility"),
        (.skipStrategyOnCapabilityGain, "exchange-capabilities", "capability-change-acts-at-once"),
        (.keepPublishingAfterCapabilityLoss, "exchange-capabilities", "capability-change-acts-at-once"),
        (.subscribeBeforePublish, "strategy-changes", "idle-link-views-agree"),
        // The SDK's own refusal is missed at the call, before the service accepts the exchange.
        (.acceptChangedImmutableField, "immutable-exchange", "errors-reach-the-error-delegate"),
        // The repeated publishState is also a publishState event that reports no change (RND-1), at the same event.
        (.eventsOnUnchangedRefresh, "strategy-changes", "join-before-events-leave-after"),
        (.ignoreNewInstanceMute, "new-instance-mute", "idle-link-views-agree"),
        (.noLeaveOnRemoteLeave, "strategy-changes", "join-before-events-leave-after"),
        (.joinAgainOnStreamChange, "strategy-changes", "join-before-events-leave-after"),
        (.videoUnderAudioOnly, "strategy-changes", "added-streams-match-answer"),
    ]

    @Test("the checker finds the mutant with a shortest counterexample, and its file replays it", arguments: checked.indices)
    func foundByChecker(index: Int) throws {
        let (mutant, name, invariant) = Self.checked[index]
        let scenario = try checkScenario(name)
        let report = Mutants.withMutant(mutant) { explore(scenario) }
        let counterexample = try #require(report.counterexample, "\(mutant.rawValue) not found")
        #expect(counterexample.violation.invariant == invariant)
        let shorter = Mutants.withMutant(mutant) { explore(scenario) { $0.maxDepth = counterexample.actions.count - 1 } }
        #expect(shorter.counterexample == nil, "a counterexample shorter than \(counterexample.actions.count) actions exists")
        let original = try String(contentsOfFile: scenario.path, encoding: .utf8)
        let text = CounterexampleFile.text(original: original, counterexample: counterexample, steps: counterexample.actions.map(\.scheduleText), header: [])
        let file = try ScenarioLoader.parse(text, path: "counterexample.yaml")
        let replay = Mutants.withMutant(mutant) { ScenarioRunner.run(file) }
        #expect(replay.violations.contains { $0.invariant == invariant }, "\(replay.violations)")
        #expect(!ScenarioRunner.run(file).violations.contains { $0.invariant == invariant }, "the counterexample needs the mutant")
    }

    @Test("a mutant bound where the search starts is on in every worker: one job or two give the same report")
    func workersInheritTheMutant() throws {
        let scenario = try checkScenario("two-peers-lossy")
        let reports = [1, 2].map { jobs in
            Mutants.withMutant(.keepStreamsAfterLeave) { explore(scenario) { $0.jobs = jobs; $0.maxDrops = 1; $0.maxDepth = 12 } }
        }
        #expect(reports[0].counterexample?.actions == reports[1].counterexample?.actions)
        #expect(reports[0].distinctStates == reports[1].distinctStates && reports[0].generatedStates == reports[1].generatedStates)
        #expect(Mutants.current == nil, "the mutant is off outside withMutant")
    }
}
