import Simulation
import StageWorld

/// What a scenario requires of its trace: an event that must occur (optionally a given number
/// of times), one that must never occur, or nothing about a participant before an anchor event
/// (RND-3); optionally inside a time window, and before or after another expectation's first
/// match (`label`, `after`, `before`).
public struct Expectation: Hashable, Sendable {
    public enum Mode: Hashable, Sendable {
        /// At least once, or exactly `count` times when given.
        case occurs(count: Int?)
        case never
        /// At each observer (the matcher's, or every client), no event about the matcher's
        /// participant comes before the observer's first event the matcher matches (the anchor);
        /// an observer that never sees the anchor sees nothing about the participant at all.
        case nothingBefore
    }

    /// Where in the trace an expectation looks, relative to the first event another, labelled
    /// expectation matched: strictly after it (nothing, when it never matched) or strictly
    /// before it (the whole trace, when it never matched; that expectation fails by itself).
    public enum Order: Hashable, Sendable {
        case after(String)
        case before(String)

        public var label: String {
            switch self {
            case .after(let label), .before(let label): label
            }
        }
    }

    public var mode: Mode
    public var matcher: EventMatcher
    public var windowStart: VirtualDuration?
    public var windowEnd: VirtualDuration?
    /// The name other expectations' `after`/`before` use for this one's first match.
    public var label: String?
    public var order: Order?
    public var line: Int

    public init(mode: Mode, matcher: EventMatcher, line: Int) {
        self.mode = mode
        self.matcher = matcher
        self.line = line
    }

    public var description: String {
        let window = (windowStart != nil || windowEnd != nil)
            ? " within \(windowStart?.description ?? "0s")..\(windowEnd?.description ?? "end")" : ""
        let order = switch order {
        case .after(let label)?: " after \(label)"
        case .before(let label)?: " before \(label)"
        case nil: ""
        }
        let suffix = window + order + (label.map { " [\($0)]" } ?? "")
        switch mode {
        case .occurs(let count): return "\(matcher)\(count.map { " x\($0)" } ?? "")\(suffix)"
        case .never: return "never \(matcher)\(suffix)"
        case .nothingBefore: return "nothing about \(matcher.participant ?? "?") before \(matcher)"
        }
    }
}

extension Expectation {
    /// The event lies inside the expectation's window and its matcher selects it.
    public func admits(_ event: TraceEvent) -> Bool {
        if let windowStart, event.time < VirtualTime.zero + windowStart { return false }
        if let windowEnd, event.time > VirtualTime.zero + windowEnd { return false }
        return matcher.matches(event)
    }
}
