import Checking
import Drivers
import Foundation
import StageWorld

/// Prints a model checker's summary and counterexample timeline.
struct CheckReportPrinter {
    let report: CheckReport
    let symmetry: Bool

    func printSummary() {
        print("distinct states: \(report.distinctStates)")
        print("states generated: \(report.generatedStates)")
        print("depth reached: \(report.maxDepthReached)")
        print("seconds: \(String(format: "%.2f", report.seconds))")
        print("states/s: \(Int(report.statesPerSecond))")
        print("bytes per state: \(Int(report.bytesPerState.rounded())) (visited set and paths)")
        print("peak frontier: \(report.peakFrontier) states waiting, \(report.peakFrontierNodes) whole nodes held at once, \(report.frontierEntryBytes) bytes per waiting state besides them")
        if let megabytes = ResidentMemory.peakMegabytes {
            print("peak resident memory: \(megabytes) MB (the whole process)")
        }
        if report.exact {
            print("exact mode: whole states kept, no fingerprint collisions possible")
        } else {
            print("fingerprint collision probability: \(String(format: "%.1e", report.collisionProbability)) (TLC's optimistic estimate)")
        }
        if symmetry {
            print("symmetry: \(report.statesRepresented) states represented by \(report.distinctStates), reduction factor \(String(format: "%.2f", report.reductionFactor))")
        }
        let extent = report.boundReached.map { "bounded by \($0)" } ?? "the whole state space within the drop budget"
        print(report.counterexample == nil ? "result: no violation (\(extent))" : "result: VIOLATION")
    }

    /// Replays the counterexample from the initial world, printing each action and what the
    /// renderers and the service saw; returns each action's description.
    static func printTimeline(_ counterexample: Counterexample, from initial: World) -> [String] {
        var loop = StepLoop(world: initial)
        var steps: [String] = []
        print("\ncounterexample, \(counterexample.actions.count) actions:")
        for (position, action) in counterexample.actions.enumerated() {
            let step = loop.world.describe(action)
            steps.append(step)
            print("  \(String(position + 1).leftPadded(to: 3))  \(action.scheduleText.padded(to: 9))  \(step)")
            for event in loop.step(action).events where ["renderer", "subscriber", "service", "error"].contains(event.category) {
                print("                      \(event.observer): \(event.detail)")
            }
        }
        let violation = counterexample.violation
        print("  VIOLATION \(violation.invariant) [\(violation.rules.joined(separator: ", "))] \(violation.observer): \(violation.message)")
        return steps
    }
}

/// The checker's progress line: rewritten in place on a terminal, silent on a pipe.
struct CheckProgressLine {
    private var line = TerminalStatusLine()

    mutating func update(_ progress: CheckProgress) {
        guard line.isTerminal else { return }
        let rate = progress.seconds > 0 ? Int(Double(progress.distinctStates) / progress.seconds) : 0
        line.show("  depth \(progress.depth): \(progress.generatedStates) states, \(progress.distinctStates) distinct, queue \(progress.queued), \(rate) states/s")
    }

    mutating func finish() { line.keep() }
}

extension String {
    func padded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

/// The process's peak resident memory, as the kernel counts it (`getrusage`).
enum ResidentMemory {
    #if os(Linux)
    private static let RUSAGE_SELF_WHO = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
    private static let RUSAGE_SELF_WHO = RUSAGE_SELF
    #endif

    static var peakMegabytes: Int? {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF_WHO, &usage) == 0 else { return nil }
        #if os(Linux)
        return usage.ru_maxrss / 1024
        #else
        return usage.ru_maxrss / (1024 * 1024)
        #endif
    }
}
