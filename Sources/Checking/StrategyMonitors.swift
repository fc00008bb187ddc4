import StageCore
import StageWorld

/// STR-3: shouldPublishParticipant is asked only for a local participant whose token allows
/// publishing; and no publish is attempted without that capability (TOK-7).
public struct PublishCapabilityMonitor: InvariantMonitor {
    public let name = "publish-asked-only-with-capability"
    public let summary = "shouldPublish is asked, and publishing attempted, only with the publish capability"
    public let rules = ["STR-3", "TOK-7"]

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        switch event.kind {
        case .strategyQueried(let report) where report.askedShouldPublish && !report.canPublish:
            return [violation(event, index: index, "shouldPublish asked without the publish capability")]
        case .renderer(.publishStateChanged(let who, .attemptingPublish, _)) where !who.capabilities.canPublish:
            return [violation(event, index: index, "\(who.participantId) attempts to publish without the publish capability")]
        default:
            return []
        }
    }
}

/// STR-5: a refreshStrategy whose answers are all unchanged changes nothing and emits nothing.
public struct SilentRefreshMonitor: InvariantMonitor {
    public let name = "unchanged-refresh-is-silent"
    public let summary = "a refresh whose answers are all unchanged emits no renderer event"
    public let rules = ["STR-5"]
    /// The observer whose refresh just reported no change; its renderer must stay quiet until
    /// the next input.
    private var quietObserver: String?
    private var refreshingObserver: String?

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        switch event.kind {
        case .hostCall(.refreshStrategy):
            refreshingObserver = event.observer
            quietObserver = nil
        case .strategyQueried(let report):
            quietObserver = (refreshingObserver == event.observer && !report.anythingChanged) ? event.observer : nil
            refreshingObserver = nil
        case .renderer(let renderer) where event.observer == quietObserver:
            return [violation(event, index: index, "refreshStrategy with unchanged answers emitted \(renderer.name)")]
        case .renderer:
            break
        default:
            refreshingObserver = nil
            quietObserver = nil
        }
        return []
    }
}
