import Simulation
import StageCore

/// Something scheduled to happen: a message arriving, a host call the script makes, or a
/// timer a client or the stage service set.
public enum PendingEvent: Hashable, Sendable {
    case delivery(Envelope)
    case hostCall(clientIndex: Int, HostCall)
    case timer(clientIndex: Int, ClientTimer)
    case serverTimer(ServerTimer)
}

extension PendingEvent {
    /// Whether the event is a timer of a client or of the stage service.
    public var isTimer: Bool {
        switch self {
        case .timer, .serverTimer: true
        case .delivery, .hostCall: false
        }
    }

    /// The client whose traffic component (`WorldComponents`) the event belongs to: the
    /// client of a host call or timer, the client whose link a frame travels; nil for the
    /// stage service's timers.
    var trafficOwner: Int? {
        switch self {
        case .hostCall(let index, _), .timer(let index, _): index
        case .delivery(let envelope): envelope.clientIndex
        case .serverTimer: nil
        }
    }

    /// For a delivery, the direction of the link it travels, as `Network.direction` numbers
    /// it; nil for any other event. Read in place: scans of the whole queue copy no envelope.
    var deliveryDirection: Int? {
        guard case .delivery(let envelope) = self else { return nil }
        return Network.direction(clientIndex: envelope.clientIndex, uplink: envelope.isUplink)
    }
}

/// What moves a world's virtual clock (NET-1: one virtual clock).
public enum Timekeeping: Hashable, Sendable {
    /// Every event moves the clock to its due time: the timed simulator fires events in due
    /// order, so this is exact time.
    case everyEvent
    /// Only timers move the clock, to their due times; deliveries, drops and host calls happen
    /// at the moment the last timer fired. The model checker's discrete-time abstraction: with
    /// timers fired in due order among themselves (`World.enabledActions`), it is exact about
    /// timers (SIG-6 keepalive, NET-3 reconnect backoff, join attempts) and lets a message take
    /// any time to arrive (NET-2), so a delivery never carries the clock past a pending timer.
    case timersOnly
}

/// One choice of what happens next. Every source of non-determinism is one of these: the
/// simulator picks by time and the PRNG, the model checker tries them all.
public enum Action: Hashable, Sendable {
    /// Fire the pending event with this sequence number (deliver it, or make the host call).
    case fire(sequence: UInt64)
    /// Lose this transmission of a pending message; the link sends it again after its
    /// retransmission timeout (doubling with each loss), holding back what follows it (NET-2).
    case drop(sequence: UInt64)
}

/// Supplies the strategy objects of clients driven through the Swift API; clients it has no
/// object for answer with their declared `StrategySpec`.
public protocol HostStrategies {
    func strategy(forClient index: Int) -> (any StrategyAnswers)?
}

/// The whole simulated system as one value: the run's configuration, shared by every copy,
/// and its state: clients, stage service, network, pending events and the virtual clock.
/// `apply` (and `step`) is the only way it changes.
public struct World: Hashable, Sendable {
    /// What never changes during the run: settings, links and the fault plan.
    public let config: WorldConfig
    public internal(set) var now: VirtualTime
    public internal(set) var clients: ClientList
    public internal(set) var server: StageServer
    public internal(set) var network: Network
    public internal(set) var pending: PendingEvents
    /// What moves the clock: every event (the timed drivers), or timers only (the model
    /// checker and the replay of its counterexamples).
    public var timekeeping = Timekeeping.everyEvent
    /// The components the action being applied has changed so far; empty between actions.
    var touched = WorldComponents()
    /// Which clients and whether the service the last action changed (`ChangeRecord`).
    public internal(set) var changes = ChangeRecord()
    /// What changed since the last action that recorded trace events ended, up to and
    /// including the last action: what a reader of the trace, who sees only actions with
    /// events (the monitors), must account for at the last action's events, so that a change
    /// made by an action without events (a silent timer, the service's ping) is not missed.
    public var changesSinceTrace: ChangeRecord { untraced.changes }
    /// `changesSinceTrace`, and whether the last action recorded events (the next one then
    /// starts a fresh record).
    var untraced = UntracedChanges()

    /// A world at time zero: every client as configured (in the configuration's name order),
    /// nothing pending.
    public init(config: WorldConfig, seed: UInt64) {
        self.config = config
        self.now = .zero
        self.clients = ClientList(config.clients.map { Client(config: $0, keepalive: config.keepalive, keyRing: config.keyRing) })
        self.server = StageServer(config: config)
        self.network = Network(links: config.links, seed: seed)
        self.pending = PendingEvents()
    }

    /// A world at time zero of a `WorldConfig` with these settings.
    public init(
        stageId: String, clients: [ClientConfig], links: [String: LinkConditions], defaultLink: LinkConditions, seed: UInt64,
        keyRing: TokenKeyRing = StageKeys.standard.keyRing, faults: FaultPlan = FaultPlan(),
        keepalive: KeepalivePolicy = KeepalivePolicy()
    ) {
        let config = WorldConfig(
            stageId: stageId, clients: clients, links: links, defaultLink: defaultLink, keyRing: keyRing, faults: faults, keepalive: keepalive
        )
        self.init(config: config, seed: seed)
    }

    /// The index of the client with this name: a binary search, since clients are ordered by
    /// name (`WorldConfig.clients`); reads names in place, copying no client.
    public func clientIndex(named name: String) -> Int? {
        var (low, high) = (0, config.clients.count)
        while low < high {
            let middle = (low + high) / 2
            if config.clients[middle].name < name { low = middle + 1 } else { high = middle }
        }
        return low < config.clients.count && config.clients[low].name == name ? low : nil
    }

    /// Schedules a raw frame to reach a client at a virtual time, as if the service sent it on
    /// whatever connection the client has then (SIG-8).
    public mutating func inject(frame: String, toClient index: Int, at time: VirtualTime) {
        pending.schedule(.delivery(Envelope(from: .server, to: .client(index), frame: frame, epoch: Envelope.currentConnection)), at: time)
    }

    /// Schedules a host call from the script at a virtual time.
    public mutating func scheduleHostCall(_ call: HostCall, clientIndex: Int, at time: VirtualTime) {
        pending.schedule(.hostCall(clientIndex: clientIndex, call), at: time)
    }

    /// Applies one action; returns the trace events it caused. An action whose event is no
    /// longer pending changes nothing and returns no event. `host` supplies strategy objects
    /// for Swift-API clients; it must answer deterministically for the step to stay pure.
    public mutating func apply(_ action: Action, host: (any HostStrategies)? = nil) -> [TraceEvent] {
        applyReportingChanges(action, host: host).events
    }

    /// `apply`, also saying which components the action changed (the model checker rehashes
    /// only those).
    public mutating func applyReportingChanges(_ action: Action, host: (any HostStrategies)? = nil) -> (events: [TraceEvent], changed: WorldComponents) {
        touched = WorldComponents()
        changes = ChangeRecord()
        let clockBefore = now
        var events: [TraceEvent] = []
        switch action {
        case .fire(let sequence):
            if let entry = pending.remove(sequence: sequence) {
                touch(owner: entry.payload)
                advanceClock(to: entry.due, firing: entry.payload)
                fire(entry.payload, host: host, into: &events)
            }
        case .drop(let sequence):
            events = drop(sequence: sequence)
        }
        cancelSpentTimers()
        if now != clockBefore { touchTimerOwners() }
        untraced.add(changes, traced: !events.isEmpty)
        let changed = touched
        touched = WorldComponents()
        return (events, changed)
    }

    /// Moves the clock to the due time of the event being fired, when `timekeeping` lets that
    /// event move it; never back.
    mutating func advanceClock(to due: VirtualTime, firing event: PendingEvent) {
        guard timekeeping == .everyEvent || event.isTimer else { return }
        now = max(now, due)
    }

    /// Cancels the pending timers of the clients and the service this action changed that can
    /// no longer do anything (`Client.isLive`, `ServerTimer.isLive`): the watchdog a ping
    /// re-armed, the timer of a join that was answered, the keepalive of a closed connection,
    /// as an SDK and a service cancel theirs. Such a timer would have fired changing nothing
    /// and recording no event, and every event keeps the sequence number it was scheduled
    /// with, so a timed run's trace is the same; the model checker no longer keys it, or fires
    /// it as a clock tick (README, "The state key"). Only the timers of what changed
    /// (`changes`) are looked at, through the pending index: a timer is live when it is set,
    /// and only a change to its owner can make it spent. The service's timers depend only on
    /// its registrations (`ServerTimer.isLive(on:)`), so they are looked at only after a change
    /// to those (`ChangeRecord.serviceTimerConnections`), not after every pong.
    mutating func cancelSpentTimers() {
        var spent: [UInt64] = []
        for client in changes.clients {
            let timers = pending.timers(ofClient: client)
            guard !timers.isEmpty else { continue }
            let evidence = TimerEvidence(of: clients[client])
            for timer in timers where !evidence.isLive(timer.timer) { spent.append(timer.sequence) }
        }
        if changes.serviceTimerConnections && pending.hasServiceTimers {
            let connections = server.timerConnections(clientCount: clients.count)
            for client in pending.serviceTimerClients {
                let connection = connections.indices.contains(client) ? connections[client] : nil
                for timer in pending.serviceTimers(forClient: client) where !timer.timer.isLive(on: connection) { spent.append(timer.sequence) }
            }
        }
        for sequence in spent { pending.remove(sequence: sequence) }
    }

    /// The clock moved: every pending timer's remaining time changed, so every component
    /// holding one (the service for its timers, a client's traffic for its own) has changed
    /// for the state key.
    mutating func touchTimerOwners() {
        if pending.hasServiceTimers { touched.insertService() }
        for client in pending.clientsWithTimers {
            if touched.containsEveryComponent { return }
            touched.insert(trafficOf: client)
        }
    }

    /// Marks the component a pending event belongs to as changed.
    mutating func touch(owner event: PendingEvent) {
        if let client = event.trafficOwner { touched.insert(trafficOf: client) } else { touched.insertService() }
    }

    private func strategy(forClient index: Int, host: (any HostStrategies)?) -> any StrategyAnswers {
        host?.strategy(forClient: index) ?? clients[index].strategy
    }

    /// Fires a pending event, appending the trace events it causes to `trace`. The helpers
    /// below append to the one array of the step too: building an array per helper and
    /// concatenating them copied every event again at each level.
    private mutating func fire(_ event: PendingEvent, host: (any HostStrategies)?, into trace: inout [TraceEvent]) {
        let time = now
        switch event {
        case .hostCall(let index, let call):
            let answers = strategy(forClient: index, host: host)
            let replaced: String? = if case .exchangeToken = call { clients[index].token } else { nil }
            trace.append(TraceEvent(time: now, observer: clients[index].name, kind: .hostCall(call), replacedToken: replaced))
            input(index, into: &trace) { $0.handle(call, strategy: answers, now: time) }
        case .timer(let index, let timer):
            let start = trace.count
            if input(index, into: &trace, { $0.handle(timer, now: time) }) {
                trace.insert(TraceEvent(time: now, observer: clients[index].name, kind: .timerFired(timer)), at: start)
            } else {
                trace.removeSubrange(start...)
            }
        case .serverTimer(let timer):
            let silenced = if case .ping(let client, _) = timer { config.faults.silencesKeepalive(of: clients[client].name, at: time) } else { false }
            serve(into: &trace) { $0.handle(timer, silenced: silenced) }
        case .delivery(let envelope):
            let (ready, reassembly) = reassemble(envelope)
            trace += reassembly
            if let ready { deliver(ready, host: host, into: &trace) }
        }
    }

    /// A frame arrives: one that is not stage signaling, or whose message contradicts what its
    /// client knows, is a logged protocol error that changes nothing (SIG-8); one of an older
    /// connection is discarded (NET-3); otherwise the stage service or the client handles the
    /// message it carries.
    private mutating func deliver(_ envelope: Envelope, host: (any HostStrategies)?, into trace: inout [TraceEvent]) {
        let observer = observerName(envelope.to)
        let message: WireMessage
        switch envelope.decoded() {
        case .failure(let error):
            let sender = switch envelope.to {
            case .server: clients[envelope.clientIndex].name
            case .client: envelope.epoch == Envelope.currentConnection ? TraceEvent.injectedSender : "server"
            }
            trace.append(TraceEvent(time: now, observer: observer, kind: .protocolError(frame: envelope.frame, reason: error.description), peer: sender))
            return
        case .success(let decoded):
            message = decoded
        }
        var discarded: TraceEvent { TraceEvent(time: now, observer: observer, kind: .discarded(frame: envelope.frame)) }
        switch envelope.to {
        case .server:
            guard server.accepts(message, from: envelope.clientIndex, epoch: envelope.epoch) else { return trace.append(discarded) }
            let time = now
            trace.append(TraceEvent(time: now, observer: observer, kind: .delivered(message, frame: envelope.frame), peer: clients[envelope.clientIndex].name))
            serve(into: &trace) { $0.handle(message, from: envelope.clientIndex, epoch: envelope.epoch, now: time) }
        case .client(let index):
            guard envelope.epoch == clients[index].epoch || envelope.epoch == Envelope.currentConnection else { return trace.append(discarded) }
            let sender = envelope.epoch == Envelope.currentConnection ? TraceEvent.injectedSender : "server"
            deliver(message, frame: envelope.frame, toClient: index, from: sender, host: host, into: &trace)
        }
    }

    /// The client handles the message, or refuses one that contradicts what it knows: then the
    /// trace shows a protocol error instead of the delivery, and nothing else (SIG-8).
    private mutating func deliver(
        _ message: WireMessage, frame: String, toClient index: Int, from sender: String, host: (any HostStrategies)?, into trace: inout [TraceEvent]
    ) {
        let answers = strategy(forClient: index, host: host)
        var refusal: String?
        let start = trace.count
        input(index, into: &trace) { client in
            let output = client.handle(message, strategy: answers)
            refusal = output.refusal
            return output
        }
        let kind = refusal.map { TraceEvent.Kind.protocolError(frame: frame, reason: $0) } ?? .delivered(message, frame: frame)
        trace.insert(TraceEvent(time: now, observer: clients[index].name, kind: kind, peer: sender), at: start)
    }

    /// Lets the stage service handle an input. Connections it closed doing so (a leave, an
    /// ejection, a connection replaced by a rejoin) take their frames in flight with them
    /// (SIG-6); then what it answered is sent, its timers set, and what changed recorded.
    private mutating func serve(into trace: inout [TraceEvent], _ handle: (inout StageServer) -> StageServer.Reply) {
        touched.insertService()
        changes.insertService()
        let registrationsBefore = server.registrations
        let reply = handle(&server)
        // The service's timers depend only on its registrations: while they stand, so does
        // every timer's liveness; a change (rarely: a join, a leave, a drop) has the timers
        // looked at (`cancelSpentTimers`).
        let registrationsChanged = !server.holdsExactly(registrationsBefore)
        if registrationsChanged { changes.insertServiceTimerConnections() }
        let connectionsBefore = registrationsChanged ? StageServer.openConnections(of: registrationsBefore) : []
        let connectionsChanged = registrationsChanged && server.connections != connectionsBefore
        if connectionsChanged { changes.insertConnections() }
        if connectionsChanged && !Mutants.isOn(.framesOutliveClosedConnection) {
            let connectionsAfter = server.connections
            for closed in connectionsBefore where !connectionsAfter.contains(closed) {
                trace += closeConnection(closed)
            }
        }
        for outgoing in reply.outgoing {
            send(Envelope(from: .server, to: .client(outgoing.clientIndex), message: outgoing.message, epoch: outgoing.epoch, channelId: config.stageId))
        }
        for timer in reply.timers {
            pending.schedule(.serverTimer(timer), at: now + timer.delay(config.keepalive))
        }
        if reply.timers.contains(where: { !$0.isLive(on: server.timerConnection(ofClient: $0.clientIndex)) }) {
            changes.insertServiceTimerConnections()
        }
        for event in reply.events { trace.append(TraceEvent(time: now, observer: "server", kind: .service(event))) }
    }

    /// Lets one client handle an input, sends what it asks for, and appends its trace events
    /// (with a layout event when a composition's layout changed); returns whether the input did
    /// anything at all.
    @discardableResult
    private mutating func input(_ index: Int, into trace: inout [TraceEvent], _ handle: (inout Client) -> Client.Output) -> Bool {
        touched.insert(client: index)
        changes.insert(client: index)
        // Asked only of compositions: reading a computed property of a client in the list
        // copies the whole client first.
        let composes = clients[index].sdk == .composition
        let layoutBefore = composes ? clients[index].compositionLayout : nil
        let epochBefore = clients[index].epoch
        let output = handle(&clients[index])
        clients[index].countPublishRequests(in: output.messages)
        if clients[index].epoch != epochBefore {
            touched.insertService()
            changes.insertServiceTimerConnections()
            abandonConnection(clientIndex: index, olderThan: clients[index].epoch)
        }
        record(output, clientIndex: index, into: &trace)
        let followed = clients[index].followSubscribers(output, now: now)
        let name = clients[index].name
        for event in output.subscriberEvents { trace.append(TraceEvent(time: now, observer: name, kind: .subscriber(event))) }
        for event in followed { trace.append(TraceEvent(time: now, observer: name, kind: .subscriber(event))) }
        if output.messages.contains(.pong) {
            let (participants, links) = (server.participants, config.links)
            let sampled = clients[index].sampleLink(config.links[index], now: now) { publisherId in
                participants.firstIndex { $0.info.participantId == publisherId }.map { links[participants[$0].clientIndex].lossProbability } ?? 0
            }
            for event in sampled { trace.append(TraceEvent(time: now, observer: name, kind: .subscriber(event))) }
        }
        if composes, let layout = clients[index].compositionLayout, layout != layoutBefore {
            trace.append(TraceEvent(time: now, observer: name, kind: .layout(layout)))
        }
        return !(output.events.isEmpty && output.messages.isEmpty && output.errors.isEmpty)
    }

    /// Sends a client's messages, sets its timers, and appends its report, renderer events and errors.
    private mutating func record(_ output: Client.Output, clientIndex: Int, into trace: inout [TraceEvent]) {
        for message in output.messages {
            send(Envelope(from: .client(clientIndex), to: .server, message: message, epoch: clients[clientIndex].epoch, channelId: config.stageId))
        }
        for (delay, timer) in output.timers {
            pending.schedule(.timer(clientIndex: clientIndex, timer), at: now + delay)
        }
        let name = clients[clientIndex].name
        let firstEvent = trace.count
        for event in output.events { trace.append(TraceEvent(time: now, observer: name, kind: .renderer(event))) }
        if let report = output.report {
            trace.insert(TraceEvent(time: now, observer: name, kind: .strategyQueried(report)), at: firstEvent + min(output.reportPosition, output.events.count))
        }
        for error in output.errors { trace.append(TraceEvent(time: now, observer: name, kind: .sdkError(error))) }
    }

    /// "server", or the client's name.
    public func observerName(_ endpoint: Endpoint) -> String {
        switch endpoint {
        case .server: "server"
        case .client(let index): clients[index].name
        }
    }
}

/// The pure transition function: the world after `action`, and the trace events it caused.
public func step(_ world: World, _ action: Action) -> (World, [TraceEvent]) {
    var next = world
    let events = next.apply(action)
    return (next, events)
}
