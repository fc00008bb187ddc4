import Checking
import Scenario
import Simulation
import StageWorld

/// One generated case that broke an invariant: the draft as generated and as shrunk, the
/// violation the shrunk case still shows, its trace hash, and the actions of its run.
public struct FuzzFailure: Sendable {
    public var seed: UInt64
    public var original: ScenarioDraft
    public var shrunk: ScenarioDraft
    public var violation: Violation
    public var traceHash: UInt64
    /// The shrunk run's actions, which replay it exactly whatever the PRNG draws; nil for a
    /// runaway run, whose schedule would be its whole event budget.
    public var schedule: [Action]?
}

/// The property runner behind `stagesim fuzz`: generate a scenario from a seed, run it with
/// every invariant monitor, and shrink a failing case to a minimal one that fails the same way.
public enum Fuzzer {
    /// The timed run of a draft, with every invariant monitor watching.
    public static func run(_ draft: ScenarioDraft) -> ScenarioRun {
        ScenarioRunner.run(draft.scenario(), seed: draft.seed)
    }

    /// The violations of a draft's timed run, which records nothing (no trace, no actions):
    /// all that checking a seed and trying a shrinking candidate need.
    public static func violations(_ draft: ScenarioDraft) -> [Violation] {
        ScenarioRunner.run(draft.scenario(), seed: draft.seed, recording: false).violations
    }

    /// Runs one seed; a failure comes back shrunk unless `shrink` is false. `found` hears of
    /// the first violation before the (possibly long) shrinking starts.
    public static func check(
        seed: UInt64, generator: ScenarioGenerator, shrink: Bool = true, found: (Violation) -> Void = { _ in }
    ) -> FuzzFailure? {
        let draft = generator.draft(seed: seed).draft
        guard let first = violations(draft).first else { return nil }
        found(first)
        let shrunk = shrink ? ScenarioShrinker(breaking: first.invariant).shrink(draft) : draft
        let after = run(shrunk)
        let violation = after.violations.first { $0.invariant == first.invariant } ?? first
        let runaway = after.violations.contains { $0.invariant == ScenarioRunner.eventBudgetInvariant }
        return FuzzFailure(
            seed: seed, original: draft, shrunk: shrunk, violation: violation, traceHash: after.violations.isEmpty ? 0 : after.traceHash,
            schedule: runaway ? nil : after.actions
        )
    }
}

/// Shrinks a failing draft while it still breaks the same invariant: fewer participants, fewer
/// steps (delta debugging over chunks), fewer faults, injected frames and network faults, participant settings
/// back to their defaults, a shorter run.
public struct ScenarioShrinker: Sendable {
    /// Whether a candidate still fails the way the original did.
    public let fails: @Sendable (ScenarioDraft) -> Bool

    public init(fails: @escaping @Sendable (ScenarioDraft) -> Bool) { self.fails = fails }

    /// Keeps candidates that still break `invariant` when run.
    public init(breaking invariant: String) {
        self.init { draft in Fuzzer.violations(draft).contains { $0.invariant == invariant } }
    }

    public func shrink(_ draft: ScenarioDraft) -> ScenarioDraft {
        var current = draft
        var changed = true
        while changed {
            changed = false
            for candidate in candidates(current) where fails(candidate) {
                current = candidate
                changed = true
                break
            }
        }
        return current
    }

    /// Each takes one kind of network fault off a link.
    static let linkFaultHeals: [@Sendable (inout LinkConditions) -> Void] = [
        { $0.lossProbability = 0 },
        { $0.jitterMax = .zero; $0.jitterDistribution = .uniform },
        { $0.duplicationProbability = 0 },
        { $0.reorderProbability = 0 },
        { $0.signalingBitsPerSecond = nil },
    ]

    /// Each puts one of a participant's generated settings back to its default.
    static let participantResets: [@Sendable (inout ScenarioDraft.Participant) -> Void] = [
        { $0.tokenExpiresAtSeconds = nil },
        { $0.tokenTopic = nil; $0.tokenResource = nil },
        { $0.tokenJti = nil },
        { $0.latency = nil },
        { $0.joinRetry = nil },
        { $0.audioFallback = true },
        { $0.videoType = .camera; $0.video = nil },
        { $0.signalingMetadata = nil; $0.notifyMetadata = nil },
    ]

    /// Smaller variants of `draft`, biggest cuts first.
    func candidates(_ draft: ScenarioDraft) -> [ScenarioDraft] {
        var result: [ScenarioDraft] = []
        for participant in draft.participants where draft.participants.count > 1 {
            var smaller = draft
            smaller.participants.removeAll { $0.name == participant.name }
            smaller.steps.removeAll { $0.participant == participant.name }
            smaller.faults.removeAll { $0.participant == participant.name }
            smaller.injections.removeAll { $0.participant == participant.name }
            result.append(smaller)
        }
        var chunk = max(draft.steps.count / 2, 1)
        while chunk >= 1 && !draft.steps.isEmpty {
            for start in stride(from: 0, to: draft.steps.count, by: chunk) {
                var smaller = draft
                smaller.steps.removeSubrange(start..<min(start + chunk, draft.steps.count))
                result.append(smaller)
            }
            chunk = chunk == 1 ? 0 : chunk / 2
        }
        for index in draft.faults.indices {
            var smaller = draft
            smaller.faults.remove(at: index)
            result.append(smaller)
        }
        for index in draft.injections.indices {
            var smaller = draft
            smaller.injections.remove(at: index)
            result.append(smaller)
        }
        if draft.keepalive != nil {
            var smaller = draft
            smaller.keepalive = nil
            result.append(smaller)
        }
        for index in draft.participants.indices {
            for reset in Self.participantResets {
                var smaller = draft
                reset(&smaller.participants[index])
                if smaller.participants[index] != draft.participants[index] { result.append(smaller) }
            }
        }
        for heal in Self.linkFaultHeals {
            var smaller = draft
            heal(&smaller.network)
            if smaller.network != draft.network { result.append(smaller) }
        }
        let lastActivity = (draft.steps.map(\.atMilliseconds) + draft.faults.map(\.toMilliseconds) + draft.injections.map(\.atMilliseconds)).max() ?? 0
        let shorter = max(lastActivity / 1_000 + 6, draft.durationSeconds / 2)
        if shorter < draft.durationSeconds {
            var smaller = draft
            smaller.durationSeconds = shorter
            result.append(smaller)
        }
        return result
    }
}
