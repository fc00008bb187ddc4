import Scenario
import Simulation
import StageWorld

extension ScenarioRunner {
    /// Judges every expectation against a finished trace, in file order.
    static func evaluate(_ expectations: [Expectation], trace: Trace) -> [ExpectationResult] {
        var judge = ExpectationJudge(expectations: expectations, events: trace.events)
        return expectations.map { judge.result($0) }
    }
}

/// Judges expectations against one trace; remembers where each labelled expectation first
/// matched, the anchor its `after`/`before` references look from.
struct ExpectationJudge {
    let events: [TraceEvent]
    private let labelled: [String: Expectation]
    /// Lookup only: each label's anchor, the index of its first match (nil: none).
    private var anchors: [String: Int?] = [:]

    init(expectations: [Expectation], events: [TraceEvent]) {
        self.events = events
        var labelled: [String: Expectation] = [:]
        for expectation in expectations {
            if let label = expectation.label { labelled[label] = expectation }
        }
        self.labelled = labelled
    }

    mutating func result(_ expectation: Expectation) -> ExpectationResult {
        let passes: (Int) -> Bool
        switch expectation.mode {
        case .nothingBefore: return nothingBefore(expectation)
        case .never: passes = { $0 == 0 }
        case .occurs(let count): passes = { seen in count.map { seen == $0 } ?? (seen > 0) }
        }
        let matches = self.matches(expectation).map { events[$0] }
        let times = matches.prefix(3).map(\.time.description).joined(separator: ", ") + (matches.count > 3 ? ", ..." : "")
        let seen = matches.isEmpty ? (expectation.mode == .never ? "never seen" : "not seen") : "seen \(matches.count)x at \(times)"
        return ExpectationResult(expectation: expectation, passed: passes(matches.count), detail: seen + anchorNote(expectation))
    }

    /// The indices of the events the expectation matches, inside its window and its order.
    private mutating func matches(_ expectation: Expectation) -> [Int] {
        scope(expectation).filter { expectation.admits(events[$0]) }
    }

    /// The part of the trace an `after`/`before` expectation looks at.
    private mutating func scope(_ expectation: Expectation) -> Range<Int> {
        switch expectation.order {
        case nil: events.indices
        case .after(let label)?: anchor(label).map { ($0 + 1)..<events.count } ?? events.count..<events.count
        case .before(let label)?: 0..<(anchor(label) ?? events.count)
        }
    }

    /// The first event the labelled expectation matched; the loader rules out loops.
    private mutating func anchor(_ label: String) -> Int? {
        if let known = anchors[label] { return known }
        let first = labelled[label].flatMap { matches($0).first }
        anchors.updateValue(first, forKey: label)
        return first
    }

    private mutating func anchorNote(_ expectation: Expectation) -> String {
        guard let order = expectation.order else { return "" }
        guard let index = anchor(order.label) else { return " ('\(order.label)' never happened)" }
        return " ('\(order.label)' at \(events[index].time))"
    }

    /// RND-3 as one line: at each observer, nothing about the participant before the
    /// observer's first anchor event (nothing at all about it when the anchor never comes).
    private func nothingBefore(_ expectation: Expectation) -> ExpectationResult {
        let matcher = expectation.matcher
        var anchored = Set<String>()
        var early: [TraceEvent] = []
        for event in events where matcher.observer.map({ $0 == event.observer }) ?? (event.observer != ExpectationVocabulary.serviceObserver) {
            if anchored.contains(event.observer) { continue }
            if matcher.matches(event) {
                anchored.insert(event.observer)
            } else if EventFields(event)?.participantId == matcher.participant {
                early.append(event)
            }
        }
        let shown = early.prefix(3).map { "\($0.time) \($0.observer): \($0.detail)" }.joined(separator: "; ")
        let detail = early.isEmpty ? "nothing before it" : "seen \(early.count) before it: \(shown)\(early.count > 3 ? "; ..." : "")"
        return ExpectationResult(expectation: expectation, passed: early.isEmpty, detail: detail)
    }
}
