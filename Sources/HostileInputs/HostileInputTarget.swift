import Simulation

/// The parsers StageSim exposes to input it does not control (issue 13): scenario files, the
/// signaling frames a client receives, and participant tokens.
public enum HostileInputKind: String, CaseIterable, Hashable, Sendable {
    case scenario
    case frame
    case token
}

/// What one hostile input did to its parser.
public enum InputVerdict: Hashable, Sendable {
    /// Taken as valid input.
    case accepted
    /// Refused with a clear error (a scenario error at a real position, a logged protocol
    /// error that left the client as it was, a token rejection with a reason).
    case rejected
    /// A broken promise: an unclear or misplaced error, a refused frame that changed the
    /// client, a frame that broke an invariant, a forged token that verified.
    case finding(String)
}

/// One parser under attack: it draws the input for a number from a seeded stream and judges
/// what the parser did with it. Inputs are a pure function of (seed, number), so a finding
/// replays from the two numbers alone.
protocol HostileInputTarget: Sendable {
    var kind: HostileInputKind { get }
    /// The input, as text for the report.
    func input(_ random: inout SplitMix64) -> String
    func verdict(on input: String) -> InputVerdict
}
