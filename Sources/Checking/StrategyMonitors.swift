import Simulation
import StageCore
import StageWorld

/// STR-3: shouldPublishParticipant is asked only for a local participant whose token allows
/// publishing; and no publish is attempted without that capability (TOK-7). The stage service
/// enforces it too: whenever it acts, no participant whose token (as the service holds it)
/// forbids publishing has published streams.
public struct PublishCapabilityMonitor: InvariantMonitor {
    public var name: String { "publish-asked-only-with-capability" }
    public var summary: String { "shouldPublish is asked, and publishing attempted or held by the stage service, only with the publish capability" }
    public var rules: [String] { ["STR-3", "TOK-7"] }

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        if event.observer == "server",
           let holder = world.server.participants.first(where: { !$0.info.capabilities.canPublish && !$0.publishedStreams.isEmpty }) {
            return [violation(event, index: index, "the stage service holds streams of \(holder.info.participantId), whose token does not allow publishing")]
        }
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

extension PublishCapabilityMonitor {
    public static var keyReads: WorldReads { [] }

    /// Stateless: it reads the service and the event.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}

/// STR-5: a refreshStrategy whose answers are all unchanged changes nothing and emits
/// nothing, with one exception: a refresh re-applies the desired state, so a publish that
/// errored (STAGE_AT_CAPACITY, STG-4) is retried, and `publishState -> attemptingPublish` of
/// that publish is the one event it may emit. Conversely a refresh, changed or not, never
/// leaves a wanted publish errored.
public struct SilentRefreshMonitor: InvariantMonitor {
    public var name: String { "unchanged-refresh-is-silent" }
    public var summary: String { "a refresh whose answers are all unchanged emits no renderer event but the retry of an errored publish, which every refresh makes" }
    public var rules: [String] { ["STR-5", "STG-4"] }
    /// The observer whose refresh just reported no change; its renderer must stay quiet until
    /// the next input.
    private var quietObserver: String?
    private var refreshingObserver: String?
    /// The observer whose own publish had errored when its current refresh began: that
    /// refresh may retry it once.
    private var retryAllowed: String?
    /// Each observer's own publish state, as its renderers were last told.
    private var localPublishState: [String: PublishState] = [:]

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        switch event.kind {
        case .hostCall(.refreshStrategy):
            refreshingObserver = event.observer
            quietObserver = nil
            retryAllowed = localPublishState[event.observer] == .errored ? event.observer : nil
        case .strategyQueried(let report):
            let refreshed = refreshingObserver == event.observer
            quietObserver = (refreshed && !report.anythingChanged) ? event.observer : nil
            refreshingObserver = nil
            if refreshed, let client = world.clientIndex(named: event.observer).map({ world.clients[$0] }),
               client.view.local.publishTarget && client.view.local.publishState == .errored {
                return [violation(event, index: index, "refreshStrategy left the errored publish of \(event.observer) unretried")]
            }
        case .renderer(let renderer):
            return observe(renderer, event, index: index)
        default:
            refreshingObserver = nil
            quietObserver = nil
        }
        return []
    }

    private mutating func observe(_ renderer: RendererEvent, _ event: TraceEvent, index: Int) -> [Violation] {
        var isRetry = false
        if case .publishStateChanged(let who, let state, _) = renderer, who.isLocal {
            isRetry = state == .attemptingPublish && retryAllowed == event.observer
            if isRetry { retryAllowed = nil }
            localPublishState[event.observer] = state
        }
        guard event.observer == quietObserver, !isRetry else { return [] }
        return [violation(event, index: index, "refreshStrategy with unchanged answers emitted \(renderer.name)")]
    }

    public static var keyReads: WorldReads { .clients }

    /// The retry allowed, and the observers whose own publish was last told `errored` (the only
    /// publish state a verdict reads), as their difference from the clients whose view holds an
    /// errored publish (the renderer is told every change of the view's publish state, so a run
    /// without a violation writes nothing) (STR-5, STG-4). The refresh
    /// in progress and the observer that must stay quiet are left out: they never outlive the
    /// action that set them, since every action's trace opens with its own event (a host call,
    /// delivery, timer, loss or service event, never a renderer event), which clears them
    /// before any renderer event of a later action is judged.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.writeOptionalName(retryAllowed)
        guard !erroredMatches(world) else { return writer.write(UInt32(0)) }
        let toldErrored = Set(localPublishState.filter { $0.value == .errored }.keys)
        let viewErrored = Set(world.clients.filter { $0.view.local.publishState == .errored }.map(\.name))
        writer.writeDifference(toldErrored, from: viewErrored) { $0.writeName($1) }
    }

    /// Whether the observers told their publish errored are exactly the clients whose view
    /// shows it errored: then the difference is empty, found with no allocation and no client
    /// copied.
    private func erroredMatches(_ world: World) -> Bool {
        var viewErrored = 0
        for index in world.clients.indices where world.clients[index].view.local.publishState == .errored {
            guard localPublishState[world.clients[index].name] == .errored else { return false }
            viewErrored += 1
        }
        return localPublishState.values.reduce(0) { $0 + ($1 == .errored ? 1 : 0) } == viewErrored
    }
}
