/// How the end of a scheduled replay is judged.
public enum ScheduleEnd: String, Sendable, CaseIterable {
    /// The model checker's: the eventually-checks, if the world ends quiescent.
    case quiescent
    /// A timed run's (the fuzzer's recordings): the end-of-run checks on the final world, as
    /// the seeded simulator makes them.
    case timed
}
