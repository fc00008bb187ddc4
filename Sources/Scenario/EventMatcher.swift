import StageCore
import StageWorld
import SubscriberModel

/// Which events an expectation is about: an event kind of `ExpectationVocabulary` and the
/// filters the loader accepted for it; every filter left nil matches anything. `participant`
/// is a participant id (a token's jti), whatever name the file used for it.
public struct EventMatcher: Hashable, Sendable, CustomStringConvertible {
    public var event: String
    /// A client's name, or `ExpectationVocabulary.serviceObserver`.
    public var observer: String?
    /// The event's subject; for `compositionLayout`, the featured participant; for subscriber
    /// events, the stream's publisher.
    public var participant: String?
    /// The subject's userId as the event shows it (VIS).
    public var userId: String?
    /// Pairs the subject's attributes must include (a subset match).
    public var attributes: Attributes?
    /// The subject's capabilities, exactly.
    public var capabilities: Capabilities?
    public var state: String?
    public var errorCode: StageErrorCode?
    /// The event must carry every one of these kinds.
    public var streams: [MediaKind]?
    /// The streams the event carries (only those of `streams`, when given) have this mute state.
    public var isMuted: Bool?
    /// For `stageError` and `refused`: the failed operation, e.g. `exchangeToken`.
    public var operation: String?
    /// For `signaling`: the frame's Sora `type`, e.g. `notify`.
    public var frameType: String?
    /// Text the event's frame, reason or detail must contain.
    public var contains: String?
    /// For `streamDestroyed` and subscriber video events: the reason.
    public var reason: String?
    /// For `strategyAsked`: a question the query asked.
    public var question: String?

    public init(event: String) { self.event = event }

    public func matches(_ traceEvent: TraceEvent) -> Bool {
        if let observer, observer != traceEvent.observer { return false }
        guard let fields = EventFields(traceEvent), event == ExpectationVocabulary.anyEvent || fields.name == event else { return false }
        return matchesSubject(fields) && matchesDetails(fields) && matchesStreams(fields.streams)
    }

    private func matchesSubject(_ fields: EventFields) -> Bool {
        if let participant, participant != fields.participantId { return false }
        if let userId, userId != fields.info?.userId { return false }
        if let capabilities, capabilities != fields.info?.capabilities { return false }
        if let attributes {
            let held = fields.info?.attributes
            return attributes.pairs.allSatisfy { pair in held?[pair.key] == pair.value }
        }
        return true
    }

    private func matchesDetails(_ fields: EventFields) -> Bool {
        if let state, state != fields.state { return false }
        if let errorCode, errorCode != fields.errorCode { return false }
        if let operation, operation != fields.operation { return false }
        if let reason, reason != fields.reason { return false }
        if let question, !fields.questions.contains(question) { return false }
        if let frameType, !(fields.frame?.hasPrefix(#"{"type":"\#(frameType)""#) ?? false) { return false }
        if let contains, !fields.texts.contains(where: { $0.contains(contains) }) { return false }
        return true
    }

    private func matchesStreams(_ carried: [StageStream]) -> Bool {
        if let streams, !streams.allSatisfy({ kind in carried.contains { $0.kind == kind } }) { return false }
        guard let isMuted else { return true }
        let selected = streams.map { kinds in carried.filter { kinds.contains($0.kind) } } ?? carried
        return !selected.isEmpty && selected.allSatisfy { $0.isMuted == isMuted }
    }

    public var description: String {
        var parts = [event]
        if let observer { parts.append("observer=\(observer == ExpectationVocabulary.serviceObserver ? "service" : observer)") }
        if let participant { parts.append("participant=\(participant)") }
        if let userId { parts.append("userId=\(userId)") }
        if let attributes { parts.append("attributes=\(attributes)") }
        if let capabilities { parts.append("capabilities=\(capabilities)") }
        if let state { parts.append("state=\(state)") }
        if let streams { parts.append("streams=\(streams.map(\.rawValue))") }
        if let isMuted { parts.append("isMuted=\(isMuted)") }
        if let errorCode { parts.append("error=\(errorCode.name)") }
        if let operation { parts.append("operation=\(operation)") }
        if let frameType { parts.append("type=\(frameType)") }
        if let reason { parts.append("reason=\(reason)") }
        if let question { parts.append("question=\(question)") }
        if let contains { parts.append("contains=\(contains)") }
        return parts.joined(separator: " ")
    }
}

/// What expectations can see of one trace event: its kind's name in the expectation
/// vocabulary and the values its filters compare against. Events no expectation can name
/// (host calls, losses, timers, transport bookkeeping) have none.
public struct EventFields {
    var name: String
    public var participantId: String?
    var info: ParticipantInfo?
    var state: String?
    var errorCode: StageErrorCode?
    var streams: [StageStream] = []
    var operation: String?
    var frame: String?
    /// What `contains` searches.
    var texts: [String] = []
    var reason: String?
    var questions: [String] = []

    init(name: String, info: ParticipantInfo? = nil, participantId: String? = nil) {
        self.name = name
        self.info = info
        self.participantId = participantId ?? info?.participantId
    }

    public init?(_ event: TraceEvent) {
        switch event.kind {
        case .renderer(let renderer): self = Self.renderer(renderer)
        case .sdkError(let report):
            self.init(name: "stageError")
            (errorCode, operation, texts) = (report.error.code, report.operation, [report.reason])
        case .layout(let layout): self.init(name: "compositionLayout", participantId: layout.featured)
        case .delivered(_, let frame):
            self.init(name: "signaling")
            (self.frame, texts) = (frame, [frame])
        case .protocolError(let frame, let reason):
            self.init(name: "protocolError")
            texts = [frame, reason]
        case .subscriber(let subscriber): self = Self.subscriber(subscriber, detail: event.detail)
        case .strategyQueried(let report):
            self.init(name: "strategyAsked")
            questions = [StrategyQuestion.shouldSubscribe.rawValue] + (report.askedShouldPublish ? [StrategyQuestion.shouldPublish.rawValue] : [])
        case .service(let service): self = Self.service(service)
        case .hostCall, .lost, .discarded, .duplicate, .heldForOrder, .timerFired: return nil
        }
    }

    private static func renderer(_ event: RendererEvent) -> EventFields {
        var fields = EventFields(name: event.name, info: event.participant)
        (fields.state, fields.errorCode, fields.streams) = (event.stateName, event.error?.code, event.streams)
        return fields
    }

    private static func subscriber(_ subscriber: SubscriberTraceEvent, detail: String) -> EventFields {
        var fields = EventFields(name: subscriber.event.name, participantId: subscriber.publisherId)
        fields.texts = [detail]
        switch subscriber.event {
        case .streamDestroyed(_, let reason): fields.reason = reason.rawValue
        case .subscriberVideoDisabled(let reason), .subscriberVideoEnabled(let reason): fields.reason = reason.rawValue
        default: break
        }
        return fields
    }

    private static func service(_ event: ServiceEvent) -> EventFields {
        switch event {
        case .admitted(let info): return EventFields(name: "admitted", info: info)
        case .metadataUpdated(let info): return EventFields(name: "metadataUpdated", info: info)
        case .publishing(let info): return EventFields(name: "publishing", info: info)
        case .left(let id, _): return EventFields(name: "left", participantId: id)
        case .publishStopped(let id, let reason): return withReason(EventFields(name: "publishStopped", participantId: id), reason)
        case .ejected(let id, let reason): return withReason(EventFields(name: "ejected", participantId: id), reason)
        case .interrupted(let id, let reason): return withReason(EventFields(name: "interrupted", participantId: id), reason)
        case .refused(let operation, let error, let reason):
            var fields = withReason(EventFields(name: "refused"), reason)
            (fields.operation, fields.errorCode) = (operation, error.code)
            return fields
        }
    }

    private static func withReason(_ fields: EventFields, _ reason: String) -> EventFields {
        var fields = fields
        fields.texts = [reason]
        return fields
    }
}
