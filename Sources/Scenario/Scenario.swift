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
    /// Observers whose every renderer event and error must be matched, in order, by the
    /// expectations (`exhaustive:`, see `ExhaustiveCheck`); empty for an ordinary scenario.
    public var exhaustive: [ExhaustiveObserver] = []

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
        scenario.exhaustive = []
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
