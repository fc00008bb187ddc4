/// One failing run found by the fuzzer, as persisted by ``FailureStore``.
///
/// The shrunk scenario text is kept next to the seed on purpose: a saved seed stops
/// reproducing as soon as the simulator changes, the shrunk action sequence does not.
public struct FailureRecord: Hashable, Sendable {
    /// The row id; `nil` before the record is saved. Ignored by ``FailureStore/save(_:)``.
    public var id: Int64?
    /// The fuzzer seed. Stored as an SQLite INTEGER through its bit pattern, so every
    /// `UInt64` (including values above `Int64.max`) round-trips exactly.
    public var seed: UInt64
    /// The name of the violated monitor (non-empty).
    public var invariant: String
    /// Spec rule ids the violation is about, in order (each non-empty).
    public var rules: [String]
    /// The monitor's message.
    public var message: String
    /// The run's trace hash as 16 lowercase hex digits (the form `XXH3.hex` prints).
    public var traceHashHex: String
    /// The shrunk scenario file, verbatim.
    public var scenarioYAML: String
    /// Steps in the scenario before shrinking (>= 0).
    public var originalStepCount: Int
    /// Steps in the scenario after shrinking (>= 0).
    public var shrunkStepCount: Int
    /// An opaque label for the run that found the failure, supplied by the caller
    /// (e.g. "fuzz seeds 1...500"). This module never reads the wall clock.
    public var createdAtRun: String
    /// Where the readable regression scenario was written, once it was.
    public var regressionPath: String?
    /// How many times the failure was found (>= 1): more than once only after
    /// ``FailureStore/merge(_:)`` met it in several stores. Ignored by ``FailureStore/save(_:)``.
    public var timesFound: Int

    public init(
        id: Int64? = nil,
        seed: UInt64,
        invariant: String,
        rules: [String],
        message: String,
        traceHashHex: String,
        scenarioYAML: String,
        originalStepCount: Int,
        shrunkStepCount: Int,
        createdAtRun: String,
        regressionPath: String? = nil,
        timesFound: Int = 1
    ) {
        self.id = id
        self.seed = seed
        self.invariant = invariant
        self.rules = rules
        self.message = message
        self.traceHashHex = traceHashHex
        self.scenarioYAML = scenarioYAML
        self.originalStepCount = originalStepCount
        self.shrunkStepCount = shrunkStepCount
        self.createdAtRun = createdAtRun
        self.regressionPath = regressionPath
        self.timesFound = timesFound
    }
}
