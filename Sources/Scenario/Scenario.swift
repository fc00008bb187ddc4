import Checking
import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// One participant of a scenario: its SDK, token claims, link and strategy.
public struct ParticipantSpec: Hashable, Sendable {
    public var name: String
    public var sdk: SDKKind
    /// The token as declared; StageSim signs declared claims when the world is made (TOK-1..3).
    public var token: TokenSource
    public var link: LinkConditions?
    public var strategy: StrategySpec
    public var video: VideoConfiguration
    public var joinRetry: JoinRetryPolicy
    public var composition: CompositionOptions
    public var reconnect: ReconnectPolicy
    /// Routed (quality fallback possible) or relayed media for this participant's subscribers (SUB-5).
    public var mediaMode: OpenTokMediaMode
    /// The app's signaling metadata and notify metadata sent with `connect` (SIG-2).
    public var connect: ConnectMetadata
    /// Publisher settings subscribers see (SUB-6, SUB-7).
    public var audioFallback: Bool
    public var videoType: OpenTokStream.VideoType

    /// A participant with these essentials and every other setting at the loader's default.
    public init(
        name: String, sdk: SDKKind, token: TokenSource, link: LinkConditions? = nil, strategy: StrategySpec = StrategySpec(),
        video: VideoConfiguration = VideoConfiguration(), joinRetry: JoinRetryPolicy = JoinRetryPolicy(),
        composition: CompositionOptions = CompositionOptions(), reconnect: ReconnectPolicy = ReconnectPolicy(),
        mediaMode: OpenTokMediaMode = .routed, connect: ConnectMetadata = ConnectMetadata(),
        audioFallback: Bool = true, videoType: OpenTokStream.VideoType = .camera
    ) {
        self.name = name
        self.sdk = sdk
        self.token = token
        self.link = link
        self.strategy = strategy
        self.video = video
        self.joinRetry = joinRetry
        self.composition = composition
        self.reconnect = reconnect
        self.mediaMode = mediaMode
        self.connect = connect
        self.audioFallback = audioFallback
        self.videoType = videoType
    }
}

/// A raw text frame the network hands a client at a virtual time, as if the service sent it
/// on the client's current connection (SIG-8: malformed and unknown frames).
public struct FrameInjection: Hashable, Sendable {
    public var at: VirtualDuration
    public var participant: String
    public var frame: String
}

/// One step of a schedule: an action of the world (`fire 12`, `drop 7`) and its line.
public struct ScheduledAction: Hashable, Sendable {
    public var action: Action
    public var line: Int
}

/// A host call the script makes at a virtual time; `line` points back into the file.
public struct ScenarioStep: Hashable, Sendable {
    public var at: VirtualDuration
    public var participant: String
    public var call: HostCall
    public var line: Int
}

/// Which events an expectation is about: renderer events by their callback name, `stageError`
/// (the error delegate), `compositionLayout` (TOK-9), `signaling` (a frame handled by its
/// receiver, SIG-1) and `protocolError` (SIG-8); every field left nil matches anything.
public struct EventMatcher: Hashable, Sendable, CustomStringConvertible {
    public var event: String
    public var observer: String?
    /// The event's subject; for `compositionLayout`, the featured participant.
    public var participant: String?
    public var state: String?
    /// The event must carry every one of these kinds.
    public var streams: [MediaKind]?
    public var errorCode: StageErrorCode?
    /// The subject's userId as the event shows it (VIS).
    public var userId: String?
    /// For `stageError`: the failed host call, e.g. `exchangeToken`.
    public var operation: String?
    /// For `signaling`: the frame's Sora `type`, e.g. `notify`.
    public var frameType: String?
    /// For `signaling` and `protocolError`: text the frame must contain.
    public var contains: String?

    public init(event: String) { self.event = event }

    public static let eventNames = RendererEvent.allNames + ["stageError", "compositionLayout", "signaling", "protocolError"]
        + subscriberEventNames

    /// The OpenTok subscriber callbacks (SUB-1..6); `participant` is the stream's publisher.
    public static let subscriberEventNames = [
        "streamCreated", "streamDestroyed", "subscriberDidConnectToStream", "subscriberDidFailWithError",
        "subscriberDidDisconnectFromStream", "subscriberDidReconnectToStream", "subscriberVideoDisabled",
        "subscriberVideoEnabled", "subscriberVideoDisableWarning", "subscriberVideoDisableWarningLifted",
        "subscriberVideoLayerChanged",
    ]

    public func matches(_ traceEvent: TraceEvent) -> Bool {
        if let observer, observer != traceEvent.observer { return false }
        switch traceEvent.kind {
        case .renderer(let renderer) where renderer.name == event: return matches(renderer)
        case .sdkError(let report) where event == "stageError":
            return (errorCode.map { $0 == report.error.code } ?? true) && (operation.map { $0 == report.operation } ?? true)
        case .layout(let layout) where event == "compositionLayout":
            return participant.map { $0 == layout.featured } ?? true
        case .delivered(_, let frame) where event == "signaling":
            return (frameType.map { frame.hasPrefix(#"{"type":"\#($0)""#) } ?? true) && (contains.map { frame.contains($0) } ?? true)
        case .subscriber(let subscriber) where subscriber.event.name == event:
            return (participant.map { $0 == subscriber.publisherId } ?? true) && (contains.map { traceEvent.detail.contains($0) } ?? true)
        case .protocolError(let frame, let reason) where event == "protocolError":
            return contains.map { frame.contains($0) || reason.contains($0) } ?? true
        default: return false
        }
    }

    private func matches(_ renderer: RendererEvent) -> Bool {
        if let participant, participant != renderer.participant?.participantId { return false }
        if let userId, userId != renderer.participant?.userId { return false }
        if let state, state != renderer.stateName { return false }
        if let errorCode, errorCode != renderer.error?.code { return false }
        if let streams, !streams.allSatisfy({ kind in renderer.streams.contains { $0.kind == kind } }) { return false }
        return true
    }

    public var description: String {
        var parts = [event]
        if let observer { parts.append("observer=\(observer)") }
        if let participant { parts.append("participant=\(participant)") }
        if let userId { parts.append("userId=\(userId)") }
        if let state { parts.append("state=\(state)") }
        if let streams { parts.append("streams=\(streams.map(\.rawValue))") }
        if let errorCode { parts.append("error=\(errorCode.name)") }
        if let operation { parts.append("operation=\(operation)") }
        if let frameType { parts.append("type=\(frameType)") }
        if let contains { parts.append("contains=\(contains)") }
        return parts.joined(separator: " ")
    }
}

/// What a scenario requires of its trace: an event that must occur (optionally a given number
/// of times, optionally inside a time window) or one that must never occur.
public struct Expectation: Hashable, Sendable {
    public enum Mode: Hashable, Sendable {
        /// At least once, or exactly `count` times when given.
        case occurs(count: Int?)
        case never
    }

    public var mode: Mode
    public var matcher: EventMatcher
    public var windowStart: VirtualDuration?
    public var windowEnd: VirtualDuration?
    public var line: Int

    public var description: String {
        let window = (windowStart != nil || windowEnd != nil)
            ? " within \(windowStart?.description ?? "0s")..\(windowEnd?.description ?? "end")" : ""
        switch mode {
        case .occurs(let count): return "\(matcher)\(count.map { " x\($0)" } ?? "")\(window)"
        case .never: return "never \(matcher)\(window)"
        }
    }
}

/// A scenario script: who takes part, what the host calls do and when, the network, and what
/// the trace must show. Loaded from YAML by `ScenarioLoader`.
public struct Scenario: Hashable, Sendable {
    public var path: String
    public var name: String
    public var covers: [String]
    public var seed: UInt64
    public var duration: VirtualDuration
    public var stageId: String
    public var network: LinkConditions
    /// Partitions and outages (NET-2).
    public var faults: FaultPlan
    /// The stage service's and every client's keepalive (SIG-6).
    public var keepalive: KeepalivePolicy
    /// How long the network must be quiet before every view must have converged.
    public var settle: VirtualDuration
    /// Raw frames the network delivers to clients as if from the service (SIG-8).
    public var injections: [FrameInjection]
    public var participants: [ParticipantSpec]
    public var steps: [ScenarioStep]
    public var expectations: [Expectation]
    /// The exact actions to take, in order, instead of the timed simulator's choices
    /// (`schedule:`): a model checker's counterexample or a fuzz regression's recorded run; nil
    /// for an ordinary scenario.
    public var schedule: [ScheduledAction]? = nil
    /// How the end of the schedule is judged (`scheduleEnd:`): a counterexample's as the
    /// checker does, a recorded timed run's as the simulator does.
    public var scheduleEnd = ScheduleEnd.quiescent
    /// The most actions a run may take (`eventBudget:`); nil for the standard budget.
    public var eventBudget: EventBudget? = nil

    /// The budget a run of this scenario gets: the file's, or one scaled to its participants
    /// and duration (`EventBudget.standard`).
    public var runEventBudget: EventBudget {
        eventBudget ?? .standard(participants: participants.count, duration: duration)
    }

    /// The world this scenario starts from, with every host call scheduled.
    /// This scenario under a swarm fault plan drawn from `seed` (NET-2): every link gets the
    /// drawn faults, the drawn partitions join the plan, and the expectations are dropped,
    /// since their timing windows assume the scenario's own network; the invariants still hold.
    public func underSwarmFaults(seed: UInt64) -> (Scenario, SwarmFaults) {
        let swarm = SwarmFaults(seed: seed, clientNames: participants.map(\.name), duration: duration)
        var scenario = self
        scenario.network = swarm.applied(to: network)
        for index in scenario.participants.indices {
            scenario.participants[index].link = participants[index].link.map(swarm.applied)
        }
        scenario.faults.partitions += swarm.plan.partitions
        scenario.expectations = []
        return (scenario, swarm)
    }

    public func makeWorld(seed: UInt64) -> World {
        let clients = participants.map { participant in
            var client = Client(
                name: participant.name, sdk: participant.sdk, token: StageKeys.standard.token(participant.token),
                strategy: participant.strategy, video: participant.video, joinRetry: participant.joinRetry,
                composition: participant.composition, keepalive: keepalive, reconnect: participant.reconnect, mediaMode: participant.mediaMode
            )
            client.connectMetadata = participant.connect
            client.audioFallbackEnabled = participant.audioFallback
            client.videoType = participant.videoType
            return client
        }
        var links: [String: LinkConditions] = [:]
        for participant in participants { links[participant.name] = participant.link }
        var world = World(
            stageId: stageId, clients: clients, links: links, defaultLink: network, seed: seed, faults: faults, keepalive: keepalive
        )
        for injection in injections {
            guard let index = world.clientIndex(named: injection.participant) else { continue }
            world.inject(frame: injection.frame, toClient: index, at: .zero + injection.at)
        }
        for step in steps {
            if let index = world.clientIndex(named: step.participant) {
                world.scheduleHostCall(step.call, clientIndex: index, at: .zero + step.at)
            }
        }
        return world
    }
}
