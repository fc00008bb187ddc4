import Simulation
import StageCore

/// Something scheduled to happen: a message arriving, a host call the script makes, or a
/// timer a client set.
public enum PendingEvent: Hashable, Sendable {
    case delivery(Envelope)
    case hostCall(clientIndex: Int, HostCall)
    case timer(clientIndex: Int, ClientTimer)
}

/// One choice of what happens next. Every source of non-determinism is one of these: the
/// simulator picks by time and the PRNG, the model checker tries them all.
public enum Action: Hashable, Sendable {
    /// Fire the pending event with this sequence number (deliver it, or make the host call).
    case fire(sequence: UInt64)
    /// Lose this transmission of a pending message; the link sends it again after its
    /// retransmission timeout, holding back what follows it (NET-2).
    case drop(sequence: UInt64)
}

/// Supplies the strategy objects of clients driven through the Swift API; clients it has no
/// object for answer with their declared `StrategySpec`.
public protocol HostStrategies {
    func strategy(forClient index: Int) -> (any StrategyAnswers)?
}

/// The whole simulated system as one value: clients, stage service, network, pending events
/// and the virtual clock. `apply` (and `step`) is the only way it changes.
public struct World: Hashable, Sendable {
    public private(set) var now: VirtualTime
    public private(set) var clients: [Client]
    public private(set) var server: StageServer
    public private(set) var network: Network
    public private(set) var pending: EventQueue<PendingEvent>

    /// A world at time zero; clients are ordered by name so that indices never depend on input
    /// order. The stage service trusts `keyRing` (by default the standard app and service keys).
    public init(
        stageId: String, clients: [Client], links: [String: LinkConditions], defaultLink: LinkConditions, seed: UInt64,
        keyRing: TokenKeyRing = StageKeys.standard.keyRing
    ) {
        let sorted = clients.sorted { $0.name < $1.name }
        self.now = .zero
        self.clients = sorted
        self.server = StageServer(stageId: stageId, keyRing: keyRing)
        self.network = Network(links: sorted.map { links[$0.name] ?? defaultLink }, seed: seed)
        self.pending = EventQueue()
    }

    public func clientIndex(named name: String) -> Int? { clients.firstIndex(where: { $0.name == name }) }

    /// Schedules a host call from the script at a virtual time.
    public mutating func scheduleHostCall(_ call: HostCall, clientIndex: Int, at time: VirtualTime) {
        pending.schedule(.hostCall(clientIndex: clientIndex, call), at: time)
    }

    /// Applies one action; returns the trace events it caused. An action whose event is no
    /// longer pending changes nothing and returns no event. `host` supplies strategy objects
    /// for Swift-API clients; it must answer deterministically for the step to stay pure.
    public mutating func apply(_ action: Action, host: (any HostStrategies)? = nil) -> [TraceEvent] {
        switch action {
        case .fire(let sequence):
            guard let entry = pending.remove(sequence: sequence) else { return [] }
            now = max(now, entry.due)
            return fire(entry.payload, host: host)
        case .drop(let sequence):
            return drop(sequence: sequence)
        }
    }

    private func strategy(forClient index: Int, host: (any HostStrategies)?) -> any StrategyAnswers {
        host?.strategy(forClient: index) ?? clients[index].strategy
    }

    private mutating func fire(_ event: PendingEvent, host: (any HostStrategies)?) -> [TraceEvent] {
        let time = now
        switch event {
        case .hostCall(let index, let call):
            let answers = strategy(forClient: index, host: host)
            let hostCall = TraceEvent(time: now, observer: clients[index].name, kind: .hostCall(call))
            return [hostCall] + input(index) { $0.handle(call, strategy: answers, now: time) }.trace
        case .timer(let index, let timer):
            let (changed, trace) = input(index) { $0.handle(timer, now: time) }
            return changed ? [TraceEvent(time: now, observer: clients[index].name, kind: .timerFired(timer))] + trace : []
        case .delivery(let envelope):
            let delivered = TraceEvent(time: now, observer: observerName(envelope.to), kind: .delivered(envelope.message))
            switch envelope.to {
            case .server:
                let reply = server.handle(envelope.message, from: envelope.clientIndex, now: now)
                for outgoing in reply.outgoing {
                    send(Envelope(from: .server, to: .client(outgoing.clientIndex), message: outgoing.message))
                }
                return [delivered] + reply.events.map { TraceEvent(time: time, observer: "server", kind: .service($0)) }
            case .client(let index):
                let answers = strategy(forClient: index, host: host)
                return [delivered] + input(index) { $0.handle(envelope.message, strategy: answers) }.trace
            }
        }
    }

    /// Lets one client handle an input, sends what it asks for, and returns its trace events
    /// (with a layout event when a composition's layout changed); `changed` tells whether the
    /// input did anything at all.
    private mutating func input(_ index: Int, _ handle: (inout Client) -> Client.Output) -> (changed: Bool, trace: [TraceEvent]) {
        let layoutBefore = clients[index].compositionLayout
        let output = handle(&clients[index])
        var trace = record(output, clientIndex: index)
        if let layout = clients[index].compositionLayout, layout != layoutBefore {
            trace.append(TraceEvent(time: now, observer: clients[index].name, kind: .layout(layout)))
        }
        let changed = !(output.events.isEmpty && output.messages.isEmpty && output.errors.isEmpty)
        return (changed, trace)
    }

    private mutating func record(_ output: Client.Output, clientIndex: Int) -> [TraceEvent] {
        for message in output.messages {
            send(Envelope(from: .client(clientIndex), to: .server, message: message))
        }
        for (delay, timer) in output.timers {
            pending.schedule(.timer(clientIndex: clientIndex, timer), at: now + delay)
        }
        let name = clients[clientIndex].name
        let report = output.report.map { [TraceEvent(time: now, observer: name, kind: .strategyQueried($0))] } ?? []
        return report + output.events.map { TraceEvent(time: now, observer: name, kind: .renderer($0)) }
            + output.errors.map { TraceEvent(time: now, observer: name, kind: .sdkError($0)) }
    }

    private mutating func send(_ envelope: Envelope) {
        let due = network.dueTime(clientIndex: envelope.clientIndex, uplink: envelope.isUplink, now: now)
        pending.schedule(.delivery(envelope), at: due)
    }

    /// Loses one transmission: the message and everything behind it on its link are scheduled
    /// again, in their order, no earlier than one retransmission timeout from now.
    private mutating func drop(sequence: UInt64) -> [TraceEvent] {
        guard let entry = pending.entry(sequence: sequence), case .delivery(let lost) = entry.payload else { return [] }
        let link = (lost.clientIndex, lost.isUplink)
        let behind = pending.entries.filter { other in
            guard other.sequence >= sequence, case .delivery(let envelope) = other.payload else { return false }
            return (envelope.clientIndex, envelope.isUplink) == link
        }
        for other in behind { pending.remove(sequence: other.sequence) }
        now = max(now, entry.due)
        let timeout = network.links[lost.clientIndex].retransmissionTimeout
        for (position, other) in behind.enumerated() {
            let due = position == 0
                ? network.dueTime(clientIndex: lost.clientIndex, uplink: lost.isUplink, now: now, extraDelay: timeout)
                : network.keepOrder(clientIndex: lost.clientIndex, uplink: lost.isUplink, notBefore: other.due)
            pending.schedule(other.payload, at: due)
        }
        return [TraceEvent(time: now, observer: observerName(lost.to), kind: .lost(lost.message))]
    }

    private func observerName(_ endpoint: Endpoint) -> String {
        switch endpoint {
        case .server: "server"
        case .client(let index): clients[index].name
        }
    }

    /// Every action that could happen next, in a deterministic order: for each client, its next
    /// host call; every pending timer; for each link direction, the message at its head, and
    /// losing that message where the link is lossy. Later messages on a link wait for the head (FIFO).
    public func enabledActions() -> [Action] {
        var actions: [Action] = []
        var seenHostCalls = Set<Int>()
        var seenLinks = Set<Int>()
        for entry in pending.entries.sorted(by: { $0.sequence < $1.sequence }) {
            switch entry.payload {
            case .hostCall(let index, _):
                if seenHostCalls.insert(index).inserted { actions.append(.fire(sequence: entry.sequence)) }
            case .timer:
                actions.append(.fire(sequence: entry.sequence))
            case .delivery(let envelope):
                let linkKey = envelope.clientIndex * 2 + (envelope.isUplink ? 1 : 0)
                guard seenLinks.insert(linkKey).inserted else { continue }
                actions.append(.fire(sequence: entry.sequence))
                if network.links[envelope.clientIndex].lossProbability > 0 {
                    actions.append(.drop(sequence: entry.sequence))
                }
            }
        }
        return actions
    }
}

/// The pure transition function: the world after `action`, and the trace events it caused.
public func step(_ world: World, _ action: Action) -> (World, [TraceEvent]) {
    var next = world
    let events = next.apply(action)
    return (next, events)
}
