import Simulation
import StageCore
import StageWorld

/// A (observer, participant) pair, the unit renderer bookkeeping is kept per.
struct ObserverParticipant: Hashable, Sendable, Comparable {
    var observer: String
    var participantId: String

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.observer, lhs.participantId) < (rhs.observer, rhs.participantId)
    }

    /// Both names through the renaming.
    func encode(into writer: inout CanonicalWriter) {
        writer.writeName(observer)
        writer.writeName(participantId)
    }
}

/// RND-3: participantDidJoin precedes every other event about a participant, and
/// participantDidLeave follows every other event about that join; no double join or leave.
/// RND-1: a remote's publish state is reported too: `published` right after its join, and
/// `notPublished` before its leave; every publishState event, local or remote, reports a change
/// (the state differs from the last one reported for that participant; `notPublished` before any).
public struct JoinLeaveOrderMonitor: InvariantMonitor {
    public var name: String { "join-before-events-leave-after" }
    public var summary: String { "participantDidJoin precedes every other event about a participant; participantDidLeave follows them all; a remote is published in between; every publishState event reports a change" }
    public var rules: [String] { ["RND-3", "RND-2", "RND-1"] }
    private var joined: Set<ObserverParticipant> = []
    /// Remotes whose renderers were told `published` and not yet `notPublished`.
    private var remotePublished: Set<ObserverParticipant> = []
    /// Remotes just joined whose `published` must be the next event about them.
    private var awaitingPublished: Set<ObserverParticipant> = []
    /// The publish state last reported for each participant, where it is not `notPublished`.
    private var reportedPublishState: [ObserverParticipant: PublishState] = [:]

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard let renderer = event.rendererEvent, let who = renderer.participant else { return [] }
        let key = ObserverParticipant(observer: event.observer, participantId: who.participantId)
        if !who.isLocal, let problem = remotePublishState(renderer, key) {
            return [violation(event, index: index, problem)]
        }
        if case .publishStateChanged(_, let state, _) = renderer, let problem = publishStateChange(to: state, key) {
            return [violation(event, index: index, problem)]
        }
        switch renderer {
        case .participantDidJoin:
            return joined.insert(key).inserted ? [] : [violation(event, index: index, "second participantDidJoin for \(who.participantId) without a leave")]
        case .participantDidLeave:
            return joined.remove(key) != nil ? [] : [violation(event, index: index, "participantDidLeave for \(who.participantId), which had not joined")]
        default:
            return joined.contains(key) ? [] : [violation(event, index: index, "\(renderer.name) about \(who.participantId) outside its join..leave")]
        }
    }

    /// RND-1 for a remote: join, then `published` at once; `notPublished` before the leave.
    private mutating func remotePublishState(_ renderer: RendererEvent, _ key: ObserverParticipant) -> String? {
        let wasAwaiting = awaitingPublished.remove(key) != nil
        switch renderer {
        case .participantDidJoin:
            awaitingPublished.insert(key)
        case .publishStateChanged(_, .published, _):
            remotePublished.insert(key)
        case .publishStateChanged(_, .notPublished, _):
            remotePublished.remove(key)
        case .participantDidLeave where remotePublished.contains(key):
            remotePublished.remove(key)
            return "participantDidLeave for \(key.participantId) while its publishState was still published"
        default:
            break
        }
        if wasAwaiting, case .publishStateChanged(_, .published, _) = renderer { return nil }
        return wasAwaiting ? "\(renderer.name) about \(key.participantId) before its publishState published" : nil
    }

    /// RND-1: a publishState event reports a change of the participant's publish state.
    private mutating func publishStateChange(to state: PublishState, _ key: ObserverParticipant) -> String? {
        let before = reportedPublishState[key] ?? .notPublished
        reportedPublishState[key] = state == .notPublished ? nil : state
        return before == state ? "publishState \(state.rawValue) for \(key.participantId), which was already \(state.rawValue)" : nil
    }

    public static var keyReads: WorldReads { [] }

    /// The pairs joined, shown published, and awaiting `published`, and the publish states
    /// reported (RND-1..3).
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        for pairs in [joined, remotePublished, awaitingPublished] { writer.writeUnordered(pairs) { $1.encode(into: &$0) } }
        writer.writeUnordered(reportedPublishState) { writer, entry in
            entry.key.encode(into: &writer)
            writer.write(entry.value.rawValue)
        }
    }
}

/// RND-5: every added stream is removed exactly once, before its participant's leave, and a
/// local leave removes them all; RND-4: streams are added only after subscribing completes.
public struct StreamAccountingMonitor: InvariantMonitor {
    public var name: String { "streams-added-once-removed-once" }
    public var summary: String { "every added stream is removed exactly once before its leave; a local leave removes all; adds only after subscribed" }
    public var rules: [String] { ["RND-5", "RND-4"] }
    private var added: [ObserverParticipant: Set<MediaKind>] = [:]
    private var subscribed: Set<ObserverParticipant> = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard let renderer = event.rendererEvent else { return [] }
        if case .connectionStateChanged(.disconnected, _) = renderer {
            let left = added.filter { $0.key.observer == event.observer && !$0.value.isEmpty }.keys.sorted()
            return left.map { violation(event, index: index, "disconnected with streams of \($0.participantId) never removed") }
        }
        guard let who = renderer.participant else { return [] }
        let key = ObserverParticipant(observer: event.observer, participantId: who.participantId)
        switch renderer {
        case .subscribeStateChanged(_, let state, _):
            if state == .subscribed { subscribed.insert(key) } else { subscribed.remove(key) }
        case .didAddStreams(_, let streams):
            var problems: [Violation] = []
            if !subscribed.contains(key) {
                problems.append(violation(event, index: index, "didAddStreams for \(who.participantId) before subscribeState subscribed"))
            }
            for stream in streams where !added[key, default: []].insert(stream.kind).inserted {
                problems.append(violation(event, index: index, "\(stream.kind.rawValue) of \(who.participantId) added twice"))
            }
            return problems
        case .didRemoveStreams(_, let streams):
            return streams.compactMap { stream in
                added[key]?.remove(stream.kind) == nil
                    ? violation(event, index: index, "\(stream.kind.rawValue) of \(who.participantId) removed but not added") : nil
            }
        case .participantDidLeave:
            let remaining = added[key, default: []].sorted()
            added[key] = nil
            return remaining.isEmpty ? [] : [violation(event, index: index, "\(who.participantId) left with \(remaining.map(\.rawValue)) never removed")]
        default:
            break
        }
        return []
    }

    public static var keyReads: WorldReads { [] }

    /// The kinds added per pair (an empty set reads as no entry, so neither is written) and
    /// the pairs subscribed (RND-4, RND-5).
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.writeUnordered(added.filter { !$0.value.isEmpty }) { writer, entry in
            entry.key.encode(into: &writer)
            writer.write(entry.value.sorted().map(\.rawValue))
        }
        writer.writeUnordered(subscribed) { $1.encode(into: &$0) }
    }
}

/// RND-4: never didAddStreams for a participant the strategy answered `none`, never a video
/// stream under `audioOnly`.
public struct SubscribeAnswerMonitor: InvariantMonitor {
    public var name: String { "added-streams-match-answer" }
    public var summary: String { "no streams for a `none` answer, no video under audioOnly" }
    public var rules: [String] { ["RND-4", "STR-1"] }

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard case .renderer(.didAddStreams(let who, let streams)) = event.kind,
              let clientIndex = world.clientIndex(named: event.observer) else { return [] }
        let answer = world.clients[clientIndex].view[who.participantId]?.answer ?? .none
        let forbidden = streams.filter { !answer.allows($0.kind) }
        guard !forbidden.isEmpty else { return [] }
        return [violation(event, index: index, "added \(forbidden.map(\.kind.rawValue)) of \(who.participantId) while the strategy answers \(answer.rawValue)")]
    }

    public static var keyReads: WorldReads { [] }

    /// Stateless: it reads the answer from the world at each event.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
