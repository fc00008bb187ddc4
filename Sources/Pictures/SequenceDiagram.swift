import Simulation

/// The sequence diagram of one run (issue 17): a lifeline per participant, arrows for the
/// signaling frames between a client and the stage service, marks for what a client saw,
/// shaded bands for partitions and outages, and the violations the monitors reported. A value
/// built from a trace; `DiagramPage` draws it.
public struct SequenceDiagram: Sendable, Equatable {
    /// The lifeline name of the stage service (the trace's observer name for it).
    public static let service = "server"

    public var title: String
    /// Lifelines, left to right: the stage service first, then the clients in world order.
    public var lifelines: [String]
    /// One row per drawn trace event, in trace (and so virtual time) order.
    public var rows: [Row]
    public var bands: [Band]
    public var violations: [ViolationMark]
    /// Lines under the title (seed, trace hash, how to replay).
    public var notes: [String]

    public init(title: String, lifelines: [String], rows: [Row], bands: [Band], violations: [ViolationMark], notes: [String]) {
        self.title = title
        self.lifelines = lifelines
        self.rows = rows
        self.bands = bands
        self.violations = violations
        self.notes = notes
    }

    /// The families of rows, each switched on and off by one key on the page.
    public enum Family: String, Sendable, CaseIterable {
        case frame, lost, host, renderer, subscriber, strategy, service, error, other

        /// The key that toggles the family on the page.
        public var key: Character {
            switch self {
            case .frame: "f"
            case .lost: "l"
            case .host: "h"
            case .renderer: "r"
            case .subscriber: "s"
            case .strategy: "g"
            case .service: "v"
            case .error: "e"
            case .other: "o"
            }
        }
    }

    /// One drawn event: an arrow between two lifelines, or a mark on one.
    public struct Row: Sendable, Equatable {
        public var time: VirtualTime
        /// Index of the event in the run's trace.
        public var eventIndex: Int
        /// The 1-based action of a counterexample that produced the event; nil for a timed run.
        public var actionNumber: Int?
        public var family: Family
        /// The lifeline that saw it (the receiver of a frame).
        public var lifeline: String
        /// The sender of a frame; nil for a mark.
        public var sender: String?
        /// The short label: the message type of a frame, the callback of a mark.
        public var label: String
        /// The whole text: a frame's JSON (JWT signatures elided), a mark's detail.
        public var detail: String
        /// Whether a monitor flagged this event.
        public var violated: Bool

        /// Whether it is drawn as an arrow.
        public var isArrow: Bool { sender != nil }
    }

    /// A time span a link was cut: a partition of one client, or an outage of the service.
    public struct Band: Sendable, Equatable {
        /// The client whose link is cut; nil for a service outage.
        public var client: String?
        public var start: VirtualTime
        public var end: VirtualTime
        public var label: String
    }

    /// A monitor's verdict, at the event it flagged (or at the end of the run).
    public struct ViolationMark: Sendable, Equatable {
        public var invariant: String
        public var rules: [String]
        public var message: String
        public var lifeline: String
        public var time: VirtualTime
        public var eventIndex: Int?
        public var actionNumber: Int?
    }
}
