/// A cell's verdict, with the seed's symbols.
public enum Visibility: String, Codable, Sendable {
    case visible = "✅"
    case notVisible = "❌"
    case conditional = "⚠️"

    /// What a run's first sighting means for the matrix: a join at republish is the seed's
    /// "conditional: only at republish"; never seeing it is "not visible".
    init(_ sight: FirstSight) {
        switch sight {
        case .metadataEvent, .joinAtFirstPublish: self = .visible
        case .joinAtRepublish: self = .conditional
        case .never, .otherEvent: self = .notVisible
        }
    }
}

/// The matrix the seed (ivs-token-exchange.it.txt) states, cell by cell: what the report's
/// simulations must reproduce (SPEC VIS). Columns: mobile >= 1.37.0, and everything older.
/// The columns are the seed's, written here by observer kind rather than read from the
/// model's `SDKKind.hasMetadataUpdateEvent`, so a wrong threshold in the model is a cell that
/// disagrees, not a table that moves with it.
public enum SeedVisibilityTable {
    public static func expected(_ history: ParticipantHistory, _ observer: ObserverKind) -> (Visibility, via: String) {
        let hasMetadataEvent = observer == .mobile137
        switch history {
        case .notPublishingThenPublishes:
            return (.visible, "participantDidJoin at first publish")
        case .publishedNoRepublish:
            return hasMetadataEvent ? (.visible, "participantMetadataDidUpdate") : (.notVisible, "never")
        case .publishedThenRepublishes:
            return hasMetadataEvent ? (.visible, "participantMetadataDidUpdate") : (.conditional, "participantDidJoin at republish")
        }
    }
}

/// One cell of the simulated matrix: what every seed showed for one history and one observer.
public struct VisibilityCell: Codable, Sendable {
    public var history: ParticipantHistory
    public var observer: ObserverKind
    public var expected: Visibility
    public var expectedVia: String
    /// The verdict when every seed agreed on how the update was first seen; nil when they did not.
    public var observed: Visibility?
    /// Each distinct way the update was first seen, with the seeds that showed it.
    public var outcomes: [OutcomeCount]
    /// Delay from the service accepting the exchange to the first sighting, over the seeds that saw it.
    public var delayMillisecondsMin: Double?
    public var delayMillisecondsMax: Double?
    public var seeds: Int

    public struct OutcomeCount: Codable, Sendable {
        public var outcome: String
        public var seeds: [UInt64]
    }

    /// The cell agrees with the seed: one outcome over every seed, and it is the expected one.
    public var agrees: Bool {
        outcomes.count == 1 && outcomes[0].outcome == expectedVia && observed == expected
    }
}

/// The whole simulated matrix: every cell, plus the invariant violations of every run.
public struct VisibilityMatrix: Codable, Sendable {
    public var seeds: [UInt64]
    public var cells: [VisibilityCell]
    public var violations: [String]
    /// Trace hash of each run, `history/seed` -> hex: rerunning must reproduce them.
    public var traceHashes: [String: String]

    public var agrees: Bool { violations.isEmpty && cells.allSatisfy(\.agrees) }

    public func cell(_ history: ParticipantHistory, _ observer: ObserverKind) -> VisibilityCell? {
        cells.first { $0.history == history && $0.observer == observer }
    }
}
