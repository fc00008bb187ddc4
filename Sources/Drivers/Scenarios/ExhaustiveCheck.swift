import Scenario
import Simulation
import StageCore
import StageWorld

/// One line of an exhaustive check's diff of expected against actual events.
public enum ExhaustiveDiffLine: Hashable, Sendable {
    /// An event the expectation on `line` accounted for.
    case matched(TraceEvent, line: Int)
    /// An expectation left with no event to match, at this point in the order (`-`).
    case missing(Expectation)
    /// An event no expectation accounted for (`+`).
    case unexpected(TraceEvent)

    /// The line as printed: `-` expected but absent, `+` present but not expected, two spaces
    /// for an event that was expected where it occurred.
    public var text: String {
        switch self {
        case .matched(let event, let line): "  \(Self.event(event))  (line \(line))"
        case .missing(let expectation): "- line \(expectation.line): \(expectation.description)"
        case .unexpected(let event): "+ \(Self.event(event))"
        }
    }

    private static func event(_ event: TraceEvent) -> String {
        "\(event.time) \(event.detail)"
    }
}

/// The verdict on one exhaustive observer: the whole diff, which passes when it has neither
/// `-` nor `+` lines.
public struct ExhaustiveResult: Hashable, Sendable {
    public var observer: ExhaustiveObserver
    public var diff: [ExhaustiveDiffLine]

    public var passed: Bool { missing == 0 && unexpected == 0 }

    public var missing: Int { diff.count { if case .missing = $0 { true } else { false } } }
    public var unexpected: Int { diff.count { if case .unexpected = $0 { true } else { false } } }

    /// One line: how many events there were and what went wrong.
    public var summary: String {
        let events = diff.count - missing
        if passed { return "exhaustive \(observer.name): \(events) events, all expected in order" }
        return "exhaustive \(observer.name): \(unexpected) unexpected and \(missing) missing of \(events) events"
    }
}

/// Exhaustive mode (`exhaustive: [observer...]`). The counted events are the observer's
/// renderer callbacks (RND, STG-2) and its error-delegate reports (`stageError`, STG-1): what
/// the host application sees through the Stage API. The OpenTok subscriber callbacks, signaling
/// frames, protocol errors and composition layouts are not counted; expectations still check
/// them one by one.
///
/// The check walks those events in trace order. Each `event:` expectation that names the
/// observer and a counted event, in file order, consumes the next events it matches inside its
/// window: `count: n` exactly n of them, no count one and then every directly following match.
/// Events skipped to reach a match are unexpected (`+`); an expectation that finds no match is
/// missing (`-`) and consumes nothing; events left over at the end are unexpected. The
/// alignment is greedy, not a minimal diff. `never:` expectations consume nothing. Every
/// expectation is also judged on its own by `ScenarioRunner.evaluate`, as usual.
public enum ExhaustiveCheck {
    /// The expectation event names that account for counted events.
    public static let eventNames: Set<String> = Set(RendererEvent.allNames + ["stageError"])

    public static func check(_ observer: ExhaustiveObserver, expectations: [Expectation], trace: Trace) -> ExhaustiveResult {
        var walk = Walk(events: trace.events.filter { $0.observer == observer.name && counts($0) })
        for expectation in expectations where accounts(for: observer.name, expectation) {
            walk.consume(expectation)
        }
        walk.finish()
        return ExhaustiveResult(observer: observer, diff: walk.diff)
    }

    /// A renderer callback or an error-delegate report.
    static func counts(_ event: TraceEvent) -> Bool {
        switch event.kind {
        case .renderer, .sdkError: true
        default: false
        }
    }

    /// An `event:` expectation about this observer's counted events.
    static func accounts(for observer: String, _ expectation: Expectation) -> Bool {
        guard case .occurs = expectation.mode else { return false }
        return expectation.matcher.observer == observer && eventNames.contains(expectation.matcher.event)
    }

    /// The cursor over one observer's events and the diff written so far.
    private struct Walk {
        let events: [TraceEvent]
        var cursor = 0
        var diff: [ExhaustiveDiffLine] = []

        init(events: [TraceEvent]) { self.events = events }

        mutating func consume(_ expectation: Expectation) {
            guard case .occurs(let count) = expectation.mode else { return }
            guard let count else {
                if take(expectation) { takeFollowing(expectation) } else { diff.append(.missing(expectation)) }
                return
            }
            for _ in 0..<count {
                if !take(expectation) { diff.append(.missing(expectation)) }
            }
        }

        /// "At least once": every match directly after the first is the same expectation's.
        private mutating func takeFollowing(_ expectation: Expectation) {
            while cursor < events.count, expectation.admits(events[cursor]) {
                diff.append(.matched(events[cursor], line: expectation.line))
                cursor += 1
            }
        }

        /// Consumes the next event `expectation` admits, marking the ones before it unexpected.
        private mutating func take(_ expectation: Expectation) -> Bool {
            guard let found = events[cursor...].firstIndex(where: expectation.admits) else { return false }
            diff += events[cursor..<found].map(ExhaustiveDiffLine.unexpected)
            diff.append(.matched(events[found], line: expectation.line))
            cursor = found + 1
            return true
        }

        mutating func finish() {
            diff += events[cursor...].map(ExhaustiveDiffLine.unexpected)
            cursor = events.count
        }
    }
}
