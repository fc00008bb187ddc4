import Simulation

extension World {
    /// Sends a frame on its connection: numbered for the receiving transport, delayed by the
    /// link, and sometimes duplicated (NET-2). A frame for a connection the client has already
    /// replaced goes nowhere: that socket is closed (NET-3).
    mutating func send(_ envelope: Envelope) {
        var envelope = envelope
        let index = envelope.clientIndex
        touched.insert(trafficOf: index)
        if !envelope.isUplink && envelope.epoch != clients[index].epoch { return }
        let slot = Network.direction(clientIndex: index, uplink: envelope.isUplink)
        envelope.sequence = network.directions[slot].nextSent
        network.directions[slot].nextSent += 1
        let bytes = envelope.frame.utf8.count
        pending.schedule(.delivery(envelope), at: network.dueTime(clientIndex: index, uplink: envelope.isUplink, now: now, bytes: bytes))
        if network.duplicates(clientIndex: index) {
            pending.schedule(.delivery(envelope), at: network.dueTime(clientIndex: index, uplink: envelope.isUplink, now: now, bytes: bytes))
        }
    }

    /// What the receiving transport does with an arriving frame: pass it on, drop a duplicate,
    /// or hold one that overtook a missing one. Held frames the arrival unblocks are handed on
    /// one per step, in order, at once: every step still delivers at most one message.
    mutating func reassemble(_ envelope: Envelope) -> (ready: Envelope?, trace: [TraceEvent]) {
        guard envelope.sequence != 0 else { return (envelope, []) }
        touched.insert(trafficOf: envelope.clientIndex)
        let slot = Network.direction(clientIndex: envelope.clientIndex, uplink: envelope.isUplink)
        let observer = observerName(envelope.to)
        let expected = network.directions[slot].nextExpected
        if envelope.sequence < expected || network.directions[slot].held.contains(where: { $0.sequence == envelope.sequence }) {
            return (nil, [TraceEvent(time: now, observer: observer, kind: .duplicate(frame: envelope.frame))])
        }
        if envelope.sequence > expected {
            network.directions[slot].held.append(envelope)
            return (nil, [TraceEvent(time: now, observer: observer, kind: .heldForOrder(frame: envelope.frame))])
        }
        network.directions[slot].nextExpected += 1
        let unblocked = network.directions[slot].held.sorted { $0.sequence < $1.sequence }
        network.directions[slot].held = []
        for frame in unblocked { pending.schedule(.delivery(frame), at: now) }
        return (envelope, [])
    }

    /// A client opened a new connection: what is still in flight on its older connections is
    /// gone with them (a closed socket), and the new one does not queue behind it (NET-3).
    mutating func abandonConnection(clientIndex: Int, olderThan epoch: Int) {
        touched.insert(trafficOf: clientIndex)
        pending.removeAll { payload in
            guard case .delivery(let envelope) = payload else { return false }
            return envelope.clientIndex == clientIndex && envelope.epoch < epoch && envelope.epoch != Envelope.currentConnection
        }
        network.resetOrder(clientIndex: clientIndex, now: now)
    }

    /// The stage service closed a connection: every frame still in flight on it, either way,
    /// dies with it (SIG-6: a frame never outlives its connection). The receivers then wait
    /// for the oldest frame still outstanding on each direction that they have not received:
    /// a second copy of a frame already handed on stays a duplicate. Returns a `discarded`
    /// event per frame, at its receiver.
    mutating func closeConnection(_ connection: ServiceConnection) -> [TraceEvent] {
        func belongs(_ envelope: Envelope) -> Bool {
            envelope.clientIndex == connection.clientIndex && envelope.epoch == connection.epoch
        }
        touched.insert(trafficOf: connection.clientIndex)
        let dying = pending.entries.filter { entry in
            guard case .delivery(let envelope) = entry.payload else { return false }
            return belongs(envelope)
        }.sorted { $0.precedes($1) }.compactMap { entry -> Envelope? in
            guard case .delivery(let envelope) = entry.payload else { return nil }
            return envelope
        }
        pending.removeAll { payload in
            guard case .delivery(let envelope) = payload else { return false }
            return belongs(envelope)
        }
        var trace = dying.map { TraceEvent(time: now, observer: observerName($0.to), kind: .discarded(frame: $0.frame)) }
        for uplink in [false, true] {
            let slot = Network.direction(clientIndex: connection.clientIndex, uplink: uplink)
            trace += network.directions[slot].held.filter(belongs).map { TraceEvent(time: now, observer: observerName($0.to), kind: .discarded(frame: $0.frame)) }
            network.directions[slot].held.removeAll(where: belongs)
            let expected = network.directions[slot].nextExpected
            let outstanding = pending.entries.compactMap { entry -> UInt64? in
                guard case .delivery(let envelope) = entry.payload, envelope.sequence >= expected,
                      envelope.clientIndex == connection.clientIndex, envelope.isUplink == uplink else { return nil }
                return envelope.sequence
            } + network.directions[slot].held.map(\.sequence)
            network.directions[slot].nextExpected = outstanding.min() ?? network.directions[slot].nextSent
        }
        return trace
    }

    /// Whether a partition or outage makes this transmission fail when it would arrive (NET-2).
    public func isCut(_ envelope: Envelope, at time: VirtualTime) -> Bool {
        !config.faults.partitions.isEmpty
            && config.faults.cuts(clientName: clients[envelope.clientIndex].name, uplink: envelope.isUplink, at: time)
    }

    /// Loses one transmission: the message and everything behind it on its link are scheduled
    /// again, in their order. The lost one goes again after the retransmission timeout,
    /// doubled for each earlier loss of it (up to 64x), as TCP backs off. Both are rescheduled
    /// in place (`PendingEvents.reschedule`), the followers found through the index of frames
    /// in flight per link.
    mutating func drop(sequence: UInt64) -> [TraceEvent] {
        guard let entry = pending.entry(sequence: sequence), case .delivery(var lost) = entry.payload else { return [] }
        touched.insert(trafficOf: lost.clientIndex)
        let link = Network.direction(clientIndex: lost.clientIndex, uplink: lost.isUplink)
        advanceClock(to: entry.due, firing: entry.payload)
        let backoff = UInt64(1) << UInt64(min(lost.lostTransmissions, 6))
        let timeout = network.links[lost.clientIndex].retransmissionTimeout * backoff
        lost.lostTransmissions += 1
        let bytes = lost.frame.utf8.count
        let now = now
        var network = Network(links: [], seed: 0)
        swap(&network, &self.network)
        defer { swap(&network, &self.network) }
        pending.reschedule(sequence: sequence, onLink: link, update: { other in
            if other.sequence == sequence {
                other.payload = .delivery(lost)
                other.due = network.dueTime(clientIndex: lost.clientIndex, uplink: lost.isUplink, now: now, bytes: bytes, extraDelay: timeout)
            } else {
                other.due = network.keepOrder(clientIndex: lost.clientIndex, uplink: lost.isUplink, notBefore: other.due)
            }
        })
        return [TraceEvent(time: now, observer: observerName(lost.to), kind: .lost(frame: lost.frame), peer: observerName(lost.from))]
    }

    /// Every action that could happen next, in a deterministic order: for each client, its next
    /// host call; every pending timer due first; for each link direction, the message at its
    /// head, and losing that message where the link is lossy (only losing it while a partition
    /// cuts the link). Later messages on a link wait for the head (FIFO).
    ///
    /// Timers, the client's and the service's alike, fire in due order among themselves: a
    /// timer is enabled only if no pending timer is due strictly earlier (equal due times in
    /// any order). So a keepalive ping cannot fire again before the pong deadline it set
    /// (SIG-6), nor a reconnect attempt before an earlier one's wait is over (NET-3).
    /// Deliveries, drops and host calls stay enabled at any moment between timer firings;
    /// under `Timekeeping.timersOnly` they do not move the clock (NET-2: a message may take any
    /// time to arrive).
    public func enabledActions() -> [Action] {
        let firstTimerDue = pending.entries.lazy.filter { $0.payload.isTimer }.map(\.due).min()
        var actions: [Action] = []
        var seenHostCalls = Set<Int>()
        var seenLinks = Set<Int>()
        for entry in pending.entries.sorted(by: { $0.sequence < $1.sequence }) {
            switch entry.payload {
            case .hostCall(let index, _):
                if seenHostCalls.insert(index).inserted { actions.append(.fire(sequence: entry.sequence)) }
            case .timer, .serverTimer:
                if entry.due == firstTimerDue { actions.append(.fire(sequence: entry.sequence)) }
            case .delivery(let envelope):
                let linkKey = envelope.clientIndex * 2 + (envelope.isUplink ? 1 : 0)
                guard seenLinks.insert(linkKey).inserted else { continue }
                let cut = isCut(envelope, at: max(now, entry.due))
                if !cut { actions.append(.fire(sequence: entry.sequence)) }
                if cut || network.links[envelope.clientIndex].lossProbability > 0 {
                    actions.append(.drop(sequence: entry.sequence))
                }
            }
        }
        return actions
    }
}

extension World {
    /// Whether a frame is in flight on the client's link, in either direction (from the
    /// pending-event index, no scan).
    public func hasFramesInFlight(onLinkOf clientIndex: Int) -> Bool {
        pending.deliveryCount(onLink: Network.direction(clientIndex: clientIndex, uplink: true)) > 0
            || pending.deliveryCount(onLink: Network.direction(clientIndex: clientIndex, uplink: false)) > 0
    }
}
