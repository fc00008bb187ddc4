import Checking
import Drivers
import Signaling
import Simulation
import StageCore
import StageWorld

/// A mistake in how a `StageSimulation` is driven (adding stages, STG-1 `join()`); the model
/// itself never throws: stage errors reach renderers and the error delegate (STG-2).
public enum StageSimulationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stages can be added only before the first `run`: every client exists from the start.
    case addedAfterStart(participantId: String)
    /// Two stages with one participant id (each stage is one client, named by its `jti`).
    case duplicateParticipant(participantId: String)
    /// The stage already belongs to another simulation.
    case stageInAnotherSimulation(participantId: String)
    /// `join()` on a stage never added to a simulation.
    case stageNotAdded(participantId: String)
    /// `run` called from inside a strategy or renderer callback of a running simulation.
    case runInProgress
    /// A stage's `signalingConnectMetadata` (`member` "metadata") or
    /// `signalingConnectNotifyMetadata` ("notifyMetadata") has no JSON form (SIG-3).
    case metadataNotEncodable(participantId: String, member: String, reason: String)

    public var description: String {
        switch self {
        case .addedAfterStart(let id): "stage \(id) added after the simulation started running; add every stage before the first run"
        case .duplicateParticipant(let id): "a stage for participant \(id) is already in this simulation"
        case .stageInAnotherSimulation(let id): "stage \(id) already belongs to another simulation"
        case .stageNotAdded(let id): "stage \(id) is not in a simulation; call simulation.add(stage) first"
        case .runInProgress: "run(for:) called from a callback while the simulation is running"
        case .metadataNotEncodable(let id, let member, let reason): "stage \(id)'s connect \(member) cannot be encoded as JSON: \(reason)"
        }
    }
}

/// The driver that runs `Stage` objects in a seeded, deterministic simulation of one stage
/// (STG-1, STR-1..5, RND-1..6, NET-1): the Swift API's counterpart of the scenario runner.
///
/// It owns the `World` value (built from every added stage, clients sorted by name) and a
/// `Simulator` with the seeded loss draws, whose `StepLoop` records the `Trace` and lets the
/// invariant monitors (`MonitorSet`) watch every step. Strategy objects answer during steps through
/// `World.apply(_:host:)`; after each step the step's renderer events go to that client's
/// stage's renderers, in trace order.
///
/// Usage: create the simulation, create stages with `Stage(token:strategy:)`, `add` them all,
/// call `join()` and friends, then `run(for:)` to advance virtual time. Host calls made between
/// runs happen at `now`; those made from a callback happen at that event's virtual time.
///
/// Not thread-safe, like swift-nio's `EmbeddedEventLoop`: use one simulation, its stages,
/// strategies and renderers from one thread (or task) at a time.
public final class StageSimulation {
    /// The run's seed: the same seed and the same calls give the same trace, byte for byte (NET-1).
    public let seed: UInt64
    /// The stage id every token's `topic` must name (TOK-1).
    public let stageId: String
    /// The default link conditions between a client and the stage service (NET-2).
    public let network: LinkConditions
    /// The simulation's virtual clock: the end of the last `run`, or the current event's time
    /// while a run delivers callbacks.
    public private(set) var now: VirtualTime = .zero
    /// The world as of the last step (before the first run: the world that will start).
    public private(set) var world: World
    /// Every event so far, in order (host calls, deliveries, losses, renderer events). Empty
    /// while a step is in progress (read from a strategy callback): the loop holds it then.
    public var trace: Trace { simulator?.loop.trace ?? Trace() }
    /// The added stages, sorted by participant id (the world's client order).
    public private(set) var stages: [Stage] = []

    private var stagesByName: [String: Stage] = [:]
    private var links: [String: LinkConditions] = [:]
    private var simulator: Simulator?
    private var host: StrategyHost?
    private let numbering = LocalStreamNumbering()
    /// Host calls made before the first run, replayed whenever the world is rebuilt.
    private var callsBeforeStart: [(participantId: String, call: HostCall)] = []
    /// Host calls made from a callback during a run, scheduled once the current step is done.
    private var callsDuringRun: [(clientIndex: Int, call: HostCall)] = []
    /// Statistics collected by `IVSStageStream.requestRTCStats()` and not yet handed to the
    /// stream's delegate, oldest first (LST-5).
    private var collectedStats: [(stream: IVSStageStream, stats: [String: [String: String]])] = []
    private var isRunning = false

    public init(seed: UInt64, stageId: String = "stage", network: LinkConditions = LinkConditions()) {
        self.seed = seed
        self.stageId = stageId
        self.network = network
        self.world = World(stageId: stageId, clients: [], links: [:], defaultLink: network, seed: seed)
    }

    /// Whether the first `run` has begun; stages can be added only before it. (A stored flag:
    /// strategies may read it during a step, while the simulator is being mutated.)
    public private(set) var hasStarted = false

    /// XXH3-64 of the trace's canonical JSON lines (`Trace.hash`).
    public var traceHash: UInt64 { trace.hash }

    /// Every invariant violation so far, including the end-of-run checks on the current world.
    /// A correct model gives none, whatever the strategies answer.
    public var violations: [Violation] {
        var finished = simulator?.loop.monitors ?? MonitorSet()
        finished.finish(world: world)
        return finished.violations
    }

    /// A signed token for this stage (TOK-2, TOK-3), issued now on the virtual clock and valid
    /// for `validFor`; `signedBy` picks the app key (default), the service key, or a key the
    /// service does not trust.
    public func token(
        for participantId: String, userId: String = "", attributes: Attributes = [:],
        capabilities: Capabilities = Capabilities(), validFor: VirtualDuration = .seconds(3600),
        signedBy signer: TokenSigner = .app
    ) -> String {
        let claims = StageKeys.claims(
            participantId: participantId, stageId: stageId, userId: userId, attributes: attributes,
            capabilities: capabilities, issuedAtSeconds: now.nanoseconds / 1_000_000_000,
            validForSeconds: validFor.nanoseconds / 1_000_000_000
        )
        return StageKeys.standard.token(.signed(claims, by: signer))
    }

    /// Adds a stage as one client of the world, with its own link or the default `network`.
    /// Only before the first run; throws `StageSimulationError` otherwise, or for a second stage
    /// with the same participant id.
    public func add(_ stage: Stage, link: LinkConditions? = nil) throws {
        let id = stage.participantId
        if let owner = stage.simulation {
            throw owner === self ? StageSimulationError.duplicateParticipant(participantId: id)
                : StageSimulationError.stageInAnotherSimulation(participantId: id)
        }
        guard !hasStarted else { throw StageSimulationError.addedAfterStart(participantId: id) }
        guard stagesByName[id] == nil else { throw StageSimulationError.duplicateParticipant(participantId: id) }
        stage.simulation = self
        stagesByName[id] = stage
        stages.insert(stage, at: stages.firstIndex { $0.participantId > id } ?? stages.endIndex)
        links[id] = link
        world = (try? makeWorld(dropping: true)) ?? world
    }

    /// Advances virtual time by `duration`: fires every event due until then, asking strategy
    /// objects during steps, checking invariants on every step, and calling renderers between
    /// steps. Throws only when called from a callback of a run in progress.
    public func run(for duration: VirtualDuration) throws {
        guard !isRunning else { throw StageSimulationError.runInProgress }
        isRunning = true
        defer { isRunning = false }
        if !hasStarted { try start() }
        deliverCollectedStats()
        let end = now + duration
        while let step = step(until: end) {
            if let current = simulator?.world { world = current }
            now = max(now, world.now)
            scheduleCallsDuringRun()
            deliver(step.outcome.events)
            scheduleCallsDuringRun()
            deliverCollectedStats()
        }
        now = max(now, end)
    }

    // MARK: Internals

    /// Schedules a stage's host call: into the world before the first run, into the simulator
    /// between runs, after the current step during a run.
    func schedule(_ call: HostCall, for stage: Stage) throws {
        guard stage.simulation === self, let index = world.clientIndex(named: stage.participantId) else {
            throw StageSimulationError.stageNotAdded(participantId: stage.participantId)
        }
        if isRunning {
            callsDuringRun.append((index, call))
        } else if hasStarted {
            simulator?.scheduleHostCall(call, clientIndex: index, at: now)
            if let current = simulator?.world { world = current }
        } else {
            callsBeforeStart.append((stage.participantId, call))
            world.scheduleHostCall(call, clientIndex: index, at: now)
        }
    }

    /// One simulator step, with the simulator taken out of this object while strategy objects
    /// answer: they may read the simulation meanwhile.
    private func step(until end: VirtualTime) -> (action: Action, outcome: StepOutcome)? {
        guard var running = simulator.take() else { return nil }
        defer { simulator = running }
        return running.step(until: end, host: host)
    }

    /// The world the stages make. Its connect metadata is each stage's Encodable values as JSON
    /// (SIG-3); a value with no JSON form throws, or is left out when `dropping` (the preview
    /// `add` keeps before the first run, whose `start` then throws).
    private func makeWorld(dropping: Bool = false) throws(StageSimulationError) -> World {
        // The configured strategy is never asked: the host answers for every client.
        var clients: [ClientConfig] = []
        for stage in stages {
            let metadata = try Self.json(stage.signalingConnectMetadata, of: stage, member: "metadata", dropping: dropping)
            let notifyMetadata = try Self.json(stage.signalingConnectNotifyMetadata, of: stage, member: "notifyMetadata", dropping: dropping)
            clients.append(ClientConfig(
                name: stage.participantId, sdk: stage.sdk, token: .raw(stage.initialToken),
                video: stage.videoConfiguration,
                connectMetadata: ConnectMetadata(metadata: metadata, notifyMetadata: notifyMetadata)
            ))
        }
        var next = World(stageId: stageId, clients: clients, links: links, defaultLink: network, seed: seed)
        for (participantId, call) in callsBeforeStart {
            if let index = next.clientIndex(named: participantId) { next.scheduleHostCall(call, clientIndex: index, at: .zero) }
        }
        return next
    }

    /// `value` as JSON (SIG-3): a `JSONValue` as it is, any other Encodable value through
    /// `JSONValue(encoding:)`.
    private static func json(_ value: (any Encodable)?, of stage: Stage, member: String, dropping: Bool) throws(StageSimulationError) -> JSONValue? {
        guard let value else { return nil }
        do {
            return try JSONValue(encoding: value)
        } catch {
            if dropping { return nil }
            throw StageSimulationError.metadataNotEncodable(participantId: stage.participantId, member: member, reason: "\(error)")
        }
    }

    private func start() throws(StageSimulationError) {
        world = try makeWorld()
        let adapters = world.clients.map { client in
            stagesByName[client.name].map { StrategyAdapter(stage: $0, numbering: numbering) }
        }
        host = StrategyHost(adapters: adapters)
        simulator = Simulator(world: world, seed: seed, monitors: MonitorSet(), recording: true)
        hasStarted = true
    }

    /// LST-5: statistics a stream collected, for its delegate at the simulation's next step.
    func collected(_ stats: [String: [String: String]], for stream: IVSStageStream) {
        collectedStats.append((stream, stats))
    }

    /// Hands the statistics collected so far to their streams' delegates, once each; those
    /// requested from a delegate's callback wait for the next step.
    private func deliverCollectedStats() {
        let due = collectedStats
        collectedStats = []
        for (stream, stats) in due { stream.delegate?.stream(stream, didGenerateRTCStats: stats) }
    }

    private func scheduleCallsDuringRun() {
        guard !callsDuringRun.isEmpty else { return }
        let calls = callsDuringRun
        callsDuringRun = []
        for (index, call) in calls { simulator?.scheduleHostCall(call, clientIndex: index, at: now) }
        if let current = simulator?.world { world = current }
    }

    /// Calls the renderers (and error delegate) of the stage each renderer event belongs to. An
    /// error the SDK also reports in the same step (an `sdkError`, e.g. a refused publish)
    /// reaches the error delegate once, from that report.
    private func deliver(_ events: [TraceEvent]) {
        let reported = events.compactMap { event -> (observer: String, error: StageError)? in
            if case .sdkError(let report) = event.kind { return (event.observer, report.error) }
            return nil
        }
        for event in events {
            guard let stage = stagesByName[event.observer] else { continue }
            deliverFrame(event, to: stage)
            if case .sdkError(let report) = event.kind {
                stage.errorDelegate?.stage(stage, didEmitError: report.error)
                scheduleCallsDuringRun()
            }
            guard case .renderer(let rendererEvent) = event.kind else { continue }
            let objects = stage.streamObjects.objects(for: rendererEvent, observer: stage)
            for renderer in stage.renderers { rendererEvent.deliver(to: renderer, from: stage, objects: objects) }
            if let error = rendererEvent.delegateError, !reported.contains(where: { $0 == (event.observer, error) }) { stage.errorDelegate?.stage(stage, didEmitError: error) }
            scheduleCallsDuringRun()
        }
    }
}

extension StageSimulation {
    /// SIG-7: the frame to the raw handler, and the decoded message to the signaling handler.
    private func deliverFrame(_ event: TraceEvent, to stage: Stage) {
        let frame: String
        switch event.kind {
        case .delivered(_, let text), .protocolError(let text, _): frame = text
        default: return
        }
        let delivery = stage.signaling.receive(.text(frame))
        stage.onReceive?(frame)
        stage.mediaChannel.webSocketChannel.handlers.onReceive?(.text(frame))
        if let message = delivery.message { stage.onReceiveSignaling?(message) }
    }
}

/// The world's `HostStrategies`: one strategy adapter per client index.
struct StrategyHost: HostStrategies {
    let adapters: [StrategyAdapter?]

    func strategy(forClient index: Int) -> (any StrategyAnswers)? {
        adapters.indices.contains(index) ? adapters[index] : nil
    }
}
