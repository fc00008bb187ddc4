import ArgumentParser
import Checking
import StageCore

/// `stagesim invariants`: the invariant catalog, each monitor with its spec rules.
struct InvariantsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invariants",
        abstract: "List the invariant monitors that run on every run, with the spec rules they check."
    )

    @Flag(help: "List the deliberate bugs a debug build can switch on (`stagesim fuzz --mutant NAME`).") var mutants = false

    func run() {
        if mutants {
            Mutant.allCases.forEach { print($0.rawValue) }
            return
        }
        let monitors = InvariantCatalog.all()
        let width = monitors.map(\.name.count).max() ?? 0
        for monitor in monitors {
            print(monitor.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  [" + monitor.rules.joined(separator: ", ") + "]")
            print(String(repeating: " ", count: width) + "  " + monitor.summary)
        }
        print("\(monitors.count) monitors; each runs on every simulation, scenario, report and fuzz run.")
    }
}
