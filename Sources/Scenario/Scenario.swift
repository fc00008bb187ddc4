import Checking
import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// One participant of a scenario: its client configuration and, when it has its own, its link.
public struct ParticipantSpec: Hashable, Sendable {
    public var config: ClientConfig
    /// nil: the scenario's link.
    public var link: LinkConditions?

    public init(_ config: ClientConfig, link: LinkConditions? = nil) {
        self.config = config
        self.link = link
    }

    /// The participant's name (its client's).
    public var name: String { config.name }
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
        var links: [String: LinkConditions] = [:]
        for participant in participants { links[participant.name] = participant.link }
        let config = WorldConfig(
            stageId: stageId, clients: participants.map(\.config), links: links, defaultLink: network, faults: faults, keepalive: keepalive
        )
        var world = World(config: config, seed: seed)
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
