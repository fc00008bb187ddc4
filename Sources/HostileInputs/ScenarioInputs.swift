import Drivers
import Foundation
import Scenario
import Simulation

/// Hostile scenario files: generated scenarios (every key the generator writes) and a sample
/// with the keys it does not, damaged line by line (lines dropped, repeated, swapped,
/// re-indented) or character by character, with YAML's own weapons spliced in (anchors and
/// aliases, tags, directives, block scalars, flow collections). The loader must load a file or
/// refuse it with a `ScenarioError` whose line and column lie inside the file.
struct ScenarioInputs: HostileInputTarget {
    let kind = HostileInputKind.scenario
    private let corpus: [String]

    init(generatedFiles: Int = 48) {
        let generator = ScenarioGenerator()
        corpus = (1...UInt64(generatedFiles)).map { generator.draft(seed: $0).draft.yaml } + [Self.sample]
    }

    /// Keys the generator does not write: injected frames, signaling metadata, schedules'
    /// neighbours, composition and media options.
    private static let sample = """
        name: sample
        covers: [SIG-8, SIG-2]
        seed: 7
        duration: 10s
        participants:
          - name: a
            sdk: composition
            signalingMetadata: {room: [1, 2, {deep: null}]}
          - {name: b, sdk: web 1.24.0, strategy: {publish: false, rules: [{participantId: a, answer: audioOnly}]}}
        inject:
          - {at: 2s, to: b, frame: '{"type":"push","data":{"event":"ejected","reason":"x"}}'}
        steps:
          - {at: 0s, participant: a, call: join}
          - {at: 0s, participant: b, call: join}
        expect:
          - {event: protocolError, observer: b, count: 0}
        """

    private static let splices = [
        "&a ", "*a", "<<: *a", "!!binary ", "!!str ", "!custom ", "? ", "--- ", "...", "%YAML 1.1\n", "|\n", ">-\n", "\t",
        "{", "[", ": ", "- ", "#", "\"\\x00\"", "'", "a: &x [*x]", "x: &b [1, *b]", "\u{FEFF}", "\u{0}", "\u{1B}[31m",
        "duration: -1s", "at: 1e400s", "count: 99999999999999999999", "sdk: mobile 99999999999999999999.0.0",
    ]

    /// In an input, this character stands for a byte that is not UTF-8 (0xFF), so that the
    /// input stays printable text while the loader reads raw bytes.
    static let invalidByteStandIn: Character = "\u{E000}"

    func input(_ random: inout SplitMix64) -> String {
        let text = random.pick(corpus) ?? ""
        return random.chance(0.4) ? Self.mutateLines(text, random: &random)
            : TextMutator.mutate(text, splices: Self.splices + [String(Self.invalidByteStandIn)], random: &random)
    }

    private static func bytes(of input: String) -> Data {
        var data = Data()
        for character in input {
            if character == invalidByteStandIn { data.append(0xFF) } else { data.append(contentsOf: Array(String(character).utf8)) }
        }
        return data
    }

    private static func mutateLines(_ text: String, random: inout SplitMix64) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = random.below(lines.count)
        let other = random.below(lines.count)
        switch random.below(5) {
        case 0: lines.remove(at: index)
        case 1: lines.insert(lines[index], at: other)
        case 2: lines.swapAt(index, other)
        case 3: lines[index] = String(repeating: " ", count: random.below(7)) + lines[index].drop { $0 == " " }
        default: lines[index] += " " + (random.pick(splices) ?? "")
        }
        return lines.joined(separator: "\n")
    }

    /// One accepted file in this many is also run, for at most `runLimit` of virtual time: a
    /// file the loader takes must not crash the simulator either.
    private static let runOneIn: UInt64 = 64
    private static let runLimit = VirtualDuration.seconds(30)

    private func simulate(_ scenario: Scenario) {
        var shortened = scenario
        shortened.duration = min(scenario.duration, Self.runLimit)
        _ = ScenarioRunner.run(shortened)
    }

    func verdict(on input: String) -> InputVerdict {
        do {
            let scenario = try ScenarioLoader.parse(data: Self.bytes(of: input), path: "input.yaml")
            if SplitMix64.fnv1a64(input) % Self.runOneIn == 0 { simulate(scenario) }
            return .accepted
        } catch let error as ScenarioError {
            let end = TextPosition(of: input.endIndex, in: input)
            guard error.line >= 1, error.column >= 1, (error.line, error.column) <= (end.line, end.column), !error.message.isEmpty else {
                return .finding("an error outside the file (it ends at \(end.line):\(end.column)): \(error)")
            }
            return .rejected
        } catch {
            return .finding("not a scenario error: \(error)")
        }
    }
}
