import Checking
import Drivers
import Simulation
import StageCore
import StageWorld

/// The three participant histories of the visibility matrix (VIS-2, VIS-3, VIS-4).
public enum ParticipantHistory: String, CaseIterable, Codable, Sendable {
    /// Exchanges its token before it ever publishes, then publishes (VIS-2).
    case notPublishingThenPublishes
    /// Publishes, exchanges its token, keeps publishing (VIS-3).
    case publishedNoRepublish
    /// Publishes, exchanges its token, unpublishes and publishes again (VIS-4).
    case publishedThenRepublishes

    /// The row label, as in the seed's table.
    public var label: String {
        switch self {
        case .notPublishingThenPublishes: "not publishing (then publishes)"
        case .publishedNoRepublish: "published, no republish"
        case .publishedThenRepublishes: "published, unpublish + republish"
        }
    }
}

/// The observer SDKs the report simulates: at least one on each side of VIS-1's line.
public enum ObserverKind: String, CaseIterable, Codable, Sendable {
    case mobile137 = "mobile 1.37.0"
    case mobile136 = "mobile 1.36.0"
    case web = "web 1.24.0"
    case composition

    public var sdk: SDKKind {
        switch self {
        case .mobile137: .mobile(SemanticVersion(1, 37, 0))
        case .mobile136: .mobile(SemanticVersion(1, 36, 0))
        case .web: .web(SemanticVersion(1, 24, 0))
        case .composition: .composition
        }
    }

    /// The client name in the simulated stage (a valid jti).
    var clientName: String {
        switch self {
        case .mobile137: "obs-mobile137"
        case .mobile136: "obs-mobile136"
        case .web: "obs-web"
        case .composition: "obs-composition"
        }
    }
}

/// How one observer first saw the exchanged userId and attributes in one run.
public enum FirstSight: Hashable, Codable, Sendable {
    /// participantMetadataDidUpdate, this long after the service accepted the exchange.
    case metadataEvent(afterMilliseconds: Double)
    /// participantDidJoin when the participant first published.
    case joinAtFirstPublish(afterMilliseconds: Double)
    /// participantDidJoin when the participant published again.
    case joinAtRepublish(afterMilliseconds: Double)
    /// Some other renderer event carried it first (never expected).
    case otherEvent(String)
    case never

    /// The kind of sighting, without timing: what must hold over every seed.
    public var outcome: String {
        switch self {
        case .metadataEvent: "participantMetadataDidUpdate"
        case .joinAtFirstPublish: "participantDidJoin at first publish"
        case .joinAtRepublish: "participantDidJoin at republish"
        case .otherEvent(let name): "\(name) (unexpected)"
        case .never: "never"
        }
    }
}

/// One simulated run of one history on one seed, with every observer kind watching: a lossy,
/// jittery network and observers that reconnect before the exchange (VIS, NET-2).
public struct VisibilityExperiment: Sendable {
    public static let subject = "subject"
    public static let oldUserId = "user-before"
    public static let newUserId = "user-after"

    /// Virtual times of the script, in milliseconds.
    static let exchangeAt: UInt64 = 3_000
    static let firstPublishAt: UInt64 = 6_000
    static let unpublishAt: UInt64 = 6_000
    static let republishAt: UInt64 = 8_000
    static let runLength: VirtualDuration = .seconds(12)

    public var history: ParticipantHistory
    public var seed: UInt64

    public init(history: ParticipantHistory, seed: UInt64) {
        self.history = history
        self.seed = seed
    }

    /// What each observer saw, and the invariant violations of the run (there must be none).
    public struct Result: Sendable {
        public var sightings: [ObserverKind: FirstSight]
        public var violations: [Violation]
        public var traceHash: UInt64
    }

    public func run() -> Result {
        let run = monitoredRun()
        var sightings: [ObserverKind: FirstSight] = [:]
        for kind in ObserverKind.allCases { sightings[kind] = firstSight(of: kind, in: run.trace) }
        return Result(sightings: sightings, violations: run.violations, traceHash: run.trace.hash)
    }

    /// The run itself, with its trace and world (the page's per-cell diagrams draw it).
    public func monitoredRun() -> MonitoredRun {
        MonitoredRun(world: makeWorld(), seed: seed, until: .zero + Self.runLength)
    }
}
