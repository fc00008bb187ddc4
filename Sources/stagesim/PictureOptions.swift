import ArgumentParser
import Drivers
import Pictures
import Simulation

/// `--html` and `--trace-events` of `run` and `replay` (issue 17): the run's sequence diagram
/// as a page, and the run in the Trace Event Format for Perfetto. Both paths are checked before
/// anything runs; both files are written whole.
struct PictureOptions: ParsableArguments {
    @Option(help: "Write the run's sequence diagram as one self-contained HTML page (one scenario only).")
    var html: String?

    @Option(help: "Write the run in the Trace Event Format (JSON) that Perfetto and chrome://tracing open (one scenario only).")
    var traceEvents: String?

    var isEmpty: Bool { html == nil && traceEvents == nil }

    /// Refuses paths that cannot be written, before any scenario runs.
    func checkTargets() throws {
        for (flag, path) in targets {
            do {
                try FileOutput.checkFile(path)
            } catch {
                throw ValidationError("\(flag): \(error)")
            }
        }
    }

    /// Writes the diagram and the trace-events file of `run`.
    func write(_ run: ScenarioRun) throws {
        let config = run.finalWorld.config
        if let html {
            let diagram = SequenceDiagram(title: "\(run.scenario.path): \(run.scenario.name)", trace: run.trace, config: config,
                                          violations: run.violations, notes: Self.notes(run))
            try Self.write(DiagramPage.html(diagram), to: html, flag: "--html")
        }
        if let traceEvents {
            try Self.write(TraceEventsFile.json(trace: run.trace, config: config, violations: run.violations), to: traceEvents, flag: "--trace-events")
        }
    }

    static func write(_ text: String, to path: String, flag: String) throws {
        do {
            try FileOutput.writeWhole(text, to: path)
        } catch {
            throw ValidationError("\(flag): \(error)")
        }
    }

    private var targets: [(String, String)] {
        [("--html", html), ("--trace-events", traceEvents)].compactMap { flag, path in path.map { (flag, $0) } }
    }

    /// The lines under a run's title: seed, trace hash and event count, and how to replay it.
    static func notes(_ run: ScenarioRun) -> [String] {
        ["seed \(run.seed)\(run.swarm == nil ? "" : " (swarm faults)"); trace hash \(XXH3.hex(run.traceHash)), \(run.trace.events.count) events",
         "replay: stagesim run \(run.scenario.path) --seed \(run.seed)\(run.swarm == nil ? "" : " --swarm")"]
    }
}
