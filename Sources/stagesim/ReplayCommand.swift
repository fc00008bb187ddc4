import ArgumentParser
import Foundation
import Scenario
import Simulation

/// `stagesim replay <seed | file>`: rerun a generated seed or a saved case bit for bit, with
/// the violating step marked in the timeline.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Rerun a fuzz seed or a saved scenario file and show its timeline with violations marked.",
        discussion: "Exit status: 0 when every invariant holds, 1 when one fails (as when it was found), 2 for a bad file."
    )

    @Argument(help: "A fuzz seed (a number) or a scenario file (e.g. a regression).") var target: String
    @Option(help: "Participants per generated scenario, as given to fuzz.") var participants: Int?
    @Option(help: "Virtual seconds per generated scenario, as given to fuzz.") var duration: UInt64?
    @Flag(help: "Include network deliveries and losses in the timeline.") var verbose = false

    func run() throws {
        let scenario: Scenario
        do {
            if FileManager.default.fileExists(atPath: target) {
                scenario = try ScenarioLoader.load(path: target)
            } else if let seed = UInt64(target) {
                let (draft, parameters) = ScenarioGenerator(participantCount: participants, durationSeconds: duration).draft(seed: seed)
                print("seed: \(seed)")
                parameters.forEach { print("  \($0)") }
                scenario = try ScenarioLoader.parse(draft.yaml, path: "generated-\(seed).yaml")
            } else {
                throw ValidationError("\(target) is neither a scenario file nor a seed")
            }
        } catch let error as ScenarioError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let run = ScenarioRunner.run(scenario)
        RunPrinter(verbose: verbose).printRun(run, timeline: true)
        if !run.passed { throw ExitCode(1) }
    }
}
