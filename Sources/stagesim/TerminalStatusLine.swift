import Foundation
import Simulation

/// Pushes out everything printed so far (through a pipe, stdout is otherwise flushed only when
/// its buffer fills or the process exits).
func flushOutput() { fflush(nil) }

/// One status line on a terminal, redrawn in place; through a pipe it draws nothing. It is
/// printed like any other output, so the two never overtake each other.
struct TerminalStatusLine {
    let isTerminal = isatty(STDOUT_FILENO) == 1
    private var shown = false

    mutating func show(_ text: String) {
        guard isTerminal else { return }
        print("\r\u{1B}[K" + text, terminator: "")
        flushOutput()
        shown = true
    }

    /// Erases the line, leaving the cursor at its start for the next output.
    mutating func clear() {
        guard shown else { return }
        print("\r\u{1B}[K", terminator: "")
        flushOutput()
        shown = false
    }

    /// Leaves the last line on screen and moves below it.
    mutating func keep() {
        guard shown else { return }
        print("")
        shown = false
    }
}

/// `stagesim run`'s progress for one scenario: once a run has taken a wall-clock second, its
/// virtual time and event count, redrawn at most ten times a second and erased when it ends.
struct RunProgressLine {
    private var line = TerminalStatusLine()
    private let start = ContinuousClock.now
    private var nextDraw: ContinuousClock.Instant
    private var stepsSinceClockRead = 0

    init() { nextDraw = start + .seconds(1) }

    mutating func update(virtualTime: VirtualTime, events: Int) {
        guard line.isTerminal else { return }
        stepsSinceClockRead += 1
        guard stepsSinceClockRead >= 256 else { return }
        stepsSinceClockRead = 0
        let now = ContinuousClock.now
        guard now >= nextDraw else { return }
        nextDraw = now + .milliseconds(100)
        line.show("  running: virtual time \(virtualTime), \(events) events")
    }

    mutating func finish() { line.clear() }
}
