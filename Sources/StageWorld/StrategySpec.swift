import StageCore

/// One rule of a declarative strategy: when a remote participant matches, answer `answer`.
/// A rule matches by participant id, by attributes (every listed pair must match), or both.
public struct SubscribeRule: Hashable, Sendable {
    public var participantId: String?
    public var attributes: Attributes
    public var answer: SubscribeType

    public init(participantId: String? = nil, attributes: Attributes = [:], answer: SubscribeType) {
        self.participantId = participantId
        self.attributes = attributes
        self.answer = answer
    }

    public func matches(_ participant: ParticipantInfo) -> Bool {
        if let participantId, participantId != participant.participantId { return false }
        return attributes.pairs.allSatisfy { participant.attributes[$0.key] == $0.value }
    }
}

/// A host application's strategy written as data, as scenario files declare it (STR-1, STR-3,
/// STR-4): a publish answer, the streams to publish, a default subscribe answer and rules whose
/// first match overrides it (attribute-based answers, STR-1).
public struct StrategySpec: Hashable, Sendable, StrategyAnswers {
    public var publish: Bool
    public var streams: [LocalStream]
    public var subscribe: SubscribeType
    public var rules: [SubscribeRule]

    public init(
        publish: Bool = true,
        streams: [LocalStream] = [LocalStream(kind: .audio), LocalStream(kind: .video)],
        subscribe: SubscribeType = .audioVideo,
        rules: [SubscribeRule] = []
    ) {
        self.publish = publish
        self.streams = streams
        self.subscribe = subscribe
        self.rules = rules
    }

    public func shouldSubscribe(to participant: ParticipantInfo) -> SubscribeType {
        rules.first(where: { $0.matches(participant) })?.answer ?? subscribe
    }

    public func shouldPublish(_ participant: ParticipantInfo) -> Bool { publish }

    public func streamsToPublish(for participant: ParticipantInfo) -> [LocalStream] { streams }
}
