import Signaling
import StageCore
import SubscriberModel

/// One kind of event an expectation can name (README "Scenario files"): who observes it, the
/// filter keys that apply to it and the values each enum filter takes. The loader rejects any
/// other filter or value at its line and column, so an expectation can never be silently
/// meaningless.
public struct EventKind: Sendable {
    /// Who sees events of this kind.
    public enum Observers: Sendable {
        /// A participant's client (its renderer, error delegate, strategy, subscribers).
        case clients
        /// The stage service only (`observer: service`).
        case service
        /// Either: frames are delivered to clients and to the service alike.
        case clientsAndService
    }

    public var name: String
    /// The filter keys this kind takes, sorted; `observer` applies to every kind.
    public var filters: [String]
    public var observers: Observers
    /// The allowed values of this kind's enum filters (`state`, `reason`, ...), each sorted.
    var values: [String: [String]]

    init(_ name: String, _ filters: [String], observers: Observers = .clients, values: [String: [String]] = [:]) {
        self.name = name
        self.filters = (filters + ["observer"]).sorted()
        self.observers = observers
        self.values = values
    }

    /// The values an enum filter takes for this kind; nil for a free-text filter.
    func allowedValues(_ filter: String) -> [String]? {
        values[filter] ?? ExpectationVocabulary.sharedValues[filter]
    }
}

/// The expectation vocabulary: every nameable event kind with its filters (the README's
/// table is this list), and the filters every kind shares.
public enum ExpectationVocabulary {
    /// The name that matches every nameable event (`{never: any, observer: X}`).
    public static let anyEvent = "any"
    /// The trace's name for the stage service as an observer; scenarios write `service`.
    public static let serviceObserver = "server"

    /// Filters about the event's subject participant.
    static let subject = ["attributes", "capabilities", "participant", "userId"]

    /// Every filter key an expectation may carry for some kind.
    public static let allFilters = [
        "attributes", "capabilities", "contains", "error", "isMuted", "observer", "operation", "participant",
        "question", "reason", "state", "streams", "type", "userId",
    ]

    static let sharedValues: [String: [String]] = [
        "error": StageErrorCode.allCases.map(\.name).sorted(),
        "streams": MediaKind.allCases.map(\.rawValue).sorted(),
        "type": SignalingMessageType.allCases.map(\.rawValue).sorted(),
    ]

    /// Every kind, in the README's order.
    public static let kinds: [EventKind] = rendererKinds + [
        EventKind("stageError", ["contains", "error", "operation"], values: ["operation": ["connection", "exchangeToken", "publish"]]),
        EventKind("compositionLayout", ["participant"]),
        EventKind("signaling", ["contains", "type"], observers: .clientsAndService),
        EventKind("protocolError", ["contains"], observers: .clientsAndService),
        EventKind("strategyAsked", ["question"], values: ["question": StrategyQuestion.allCases.map(\.rawValue).sorted()]),
    ] + subscriberKinds + serviceKinds + [EventKind(anyEvent, [], observers: .clientsAndService)]

    static let rendererKinds = [
        EventKind("participantDidJoin", subject), EventKind("participantDidLeave", subject),
        EventKind("participantMetadataDidUpdate", subject),
        EventKind("publishState", subject + ["error", "state"], values: ["state": states(PublishState.self)]),
        EventKind("subscribeState", subject + ["error", "state"], values: ["state": states(SubscribeState.self)]),
        EventKind("connectionState", ["error", "state"], values: ["state": states(ConnectionState.self)]),
        EventKind("didAddStreams", subject + ["isMuted", "streams"]), EventKind("didRemoveStreams", subject + ["isMuted", "streams"]),
        EventKind("didChangeMutedStreams", subject + ["isMuted", "streams"]),
    ]

    /// The OpenTok subscriber callbacks (SUB-1..6); `participant` is the stream's publisher.
    static let subscriberKinds = [
        "streamCreated", "subscriberDidConnectToStream", "subscriberDidFailWithError", "subscriberDidDisconnectFromStream",
        "subscriberDidReconnectToStream", "subscriberVideoDisableWarning", "subscriberVideoDisableWarningLifted", "subscriberVideoLayerChanged",
    ].map { EventKind($0, ["contains", "participant"]) } + [
        EventKind("streamDestroyed", ["contains", "participant", "reason"], values: ["reason": states(StreamDestroyedReason.self)]),
        EventKind("subscriberVideoDisabled", ["contains", "participant", "reason"], values: ["reason": states(SubscriberVideoEventReason.self)]),
        EventKind("subscriberVideoEnabled", ["contains", "participant", "reason"], values: ["reason": states(SubscriberVideoEventReason.self)]),
    ]

    /// What the stage service records (`ServiceEvent`): admissions, metadata updates, publishes,
    /// departures, ejections, interruptions and refusals (TOK, VIS, SUB-4).
    static let serviceKinds = [
        EventKind("admitted", subject, observers: .service), EventKind("metadataUpdated", subject, observers: .service),
        EventKind("publishing", subject, observers: .service), EventKind("left", ["participant"], observers: .service),
        EventKind("publishStopped", ["contains", "participant"], observers: .service),
        EventKind("ejected", ["contains", "participant"], observers: .service),
        EventKind("interrupted", ["contains", "participant"], observers: .service),
        EventKind("refused", ["contains", "error", "operation"], observers: .service, values: ["operation": ["exchangeToken", "join"]]),
    ]

    public static let names = kinds.map(\.name)

    public static func kind(named name: String) -> EventKind? {
        kinds.first { $0.name == name }
    }

    private static func states<Value: RawRepresentable & CaseIterable>(_ type: Value.Type) -> [String] where Value.RawValue == String {
        type.allCases.map(\.rawValue).sorted()
    }
}

/// A strategy question the SDK asks (STR-1, STR-3): every strategy query asks
/// `shouldSubscribe` for the remotes it knows, and `shouldPublish` (with `streamsToPublish`)
/// when the local token allows publishing.
public enum StrategyQuestion: String, Hashable, Sendable, CaseIterable {
    case shouldSubscribe
    case shouldPublish
}
