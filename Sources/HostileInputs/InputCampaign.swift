import Simulation

/// What a run of hostile inputs against one parser found.
public struct InputTally: Hashable, Sendable {
    public var kind: HostileInputKind
    public var inputs = 0
    public var accepted = 0
    public var rejected = 0
    /// Each finding with the input number that replays it (`--seed`, `--from`).
    public var findings: [InputFinding] = []

    public init(kind: HostileInputKind) { self.kind = kind }
}

/// A broken promise, with the input that broke it and its number.
public struct InputFinding: Hashable, Sendable, CustomStringConvertible {
    public var number: UInt64
    public var input: String
    public var problem: String

    public var description: String {
        let shown = input.count > 300 ? String(input.prefix(300)) + "... (\(input.utf8.count) bytes)" : input
        return "input \(number): \(problem)\n    \(shown.debugDescription)"
    }
}

/// Feeds seeded hostile inputs to one parser (issue 13): input `n` of a campaign is drawn
/// from the stream `mix64(seed ^ n)`, so any one of them replays on its own.
public struct InputCampaign: Sendable {
    private let target: any HostileInputTarget
    public let seed: UInt64

    /// A campaign against `kind`'s parser; building the frame target runs a short stage.
    public init(kind: HostileInputKind, seed: UInt64) throws {
        switch kind {
        case .scenario: target = ScenarioInputs()
        case .frame: target = try FrameInputs()
        case .token: target = TokenInputs()
        }
        self.seed = seed
    }

    /// The input with number `number`.
    public func input(number: UInt64) -> String {
        var random = SplitMix64(seed: SplitMix64.mix64(seed ^ SplitMix64.mix64(number)))
        return target.input(&random)
    }

    /// Runs `count` inputs from number `first` on (`first + count - 1` must not pass
    /// `UInt64.max`); `progress` is called every `progressEvery` inputs.
    public func run(first: UInt64 = 0, count: UInt64, progressEvery: UInt64 = 10_000, progress: (InputTally) -> Void = { _ in }) -> InputTally {
        var tally = InputTally(kind: target.kind)
        for offset in 0..<count {
            let number = first + offset
            let text = input(number: number)
            switch target.verdict(on: text) {
            case .accepted: tally.accepted += 1
            case .rejected: tally.rejected += 1
            case .finding(let problem): tally.findings.append(InputFinding(number: number, input: text, problem: problem))
            }
            tally.inputs += 1
            if UInt64(tally.inputs) % max(progressEvery, 1) == 0 { progress(tally) }
        }
        return tally
    }
}
