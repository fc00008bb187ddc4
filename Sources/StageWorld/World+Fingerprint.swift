import Simulation
import StageCore

extension World {
    /// Writes the world's exploration state: everything that decides its future behaviour, with absolute time left out.
    ///
    /// Configuration: `config` (settings, links, fault plan) is the same in every state of a
    /// run, so it is not written; a key is comparable only with keys of the same configuration
    /// (`WorldConfig.fingerprint` tells configurations apart).
    ///
    /// Time abstraction: no clock, delivery due times, link busy times or stored times; each
    /// pending timer's remaining time (due - now), since timers fire in due order
    /// (`enabledActions`) and so which fires next, now and after timers yet to be set, depends
    /// on it; no network PRNG (the checker runs without jitter or duplication, where draws
    /// only shift times); no ever-growing counters (queue sequence numbers, ping counts):
    /// transport numbers are written relative to the receiving side, keepalive timers as
    /// current or stale.
    /// Symmetry: names and client indices go through the writer's renaming maps, clients are
    /// written in the order of their images, and collections ordered by name as sets.
    public func encodeExplorationState(into writer: inout CanonicalWriter) {
        encodeComponent(0, into: &writer)
        writer.write(UInt32(clients.count))
        for index in clients.indices.sorted(by: { writer.image(ofClient: $0) < writer.image(ofClient: $1) }) {
            encodeClient(index, into: &writer)
        }
    }

    /// How many components the world has (`WorldComponents`): the service, and the state and
    /// the traffic of each client.
    public var componentCount: Int { 2 * clients.count + 1 }

    /// Writes one component's part of the exploration state: for 0 the stage service and its
    /// timers; for `2i + 1` client `i`'s own state; for `2i + 2` its traffic, everything pending
    /// for it. A component's bytes depend on no other component's state, except that a client's
    /// timers are judged against its state (whose changes mark both) and every timer's
    /// remaining time against the clock (whose moves mark every component holding a timer,
    /// `World.touchTimerOwners`), so a component the last action did not change keeps its hash.
    public func encodeComponent(_ component: Int, into writer: inout CanonicalWriter) {
        guard component > 0 else {
            let epochs = clients.map(\.epoch)
            server.encode(to: &writer, clientEpochs: epochs)
            let timers = pending.entries.compactMap { entry -> (ServerTimer, VirtualTime)? in
                guard case .serverTimer(let timer) = entry.payload else { return nil }
                return (timer, entry.due)
            }
            return writer.writeUnordered(timers) { writer, timer in
                timer.0.encode(to: &writer, server: server, clientEpochs: epochs)
                writer.writeRemaining(until: timer.1, from: now)
            }
        }
        let index = (component - 1) / 2
        if component % 2 == 1 {
            clients[index].encode(to: &writer, keyRing: config.keyRing)
        } else {
            encodeTraffic(index, to: &writer)
        }
    }

    /// Both components of client `index`: its state, then its traffic.
    public func encodeClient(_ index: Int, into writer: inout CanonicalWriter) {
        encodeComponent(2 * index + 1, into: &writer)
        encodeComponent(2 * index + 2, into: &writer)
    }

    /// The XXH3-64 hash of one component's encoding, written into `scratch` (cleared first).
    public func componentHash(_ component: Int, scratch: inout CanonicalWriter) -> UInt64 {
        scratch.reset()
        encodeComponent(component, into: &scratch)
        return scratch.hash64()
    }

    /// XXH3-64 of that encoding (writer built with the given renaming maps).
    public func fingerprint(nameImages: [String: String] = [:], clientIndexImages: [Int] = []) -> UInt64 {
        XXH3.hash64(explorationBytes(nameImages: nameImages, clientIndexImages: clientIndexImages))
    }

    /// The encoding's bytes (for the checker's exact mode and for tests), under the given renaming maps.
    public func explorationBytes(nameImages: [String: String] = [:], clientIndexImages: [Int] = []) -> [UInt8] {
        var writer = CanonicalWriter(reservingCapacity: 4096)
        writer.nameImages = nameImages
        writer.clientIndexImages = clientIndexImages
        encodeExplorationState(into: &writer)
        return writer.bytes
    }

    /// Everything pending for a client: its link's conditions, both directions of its link with
    /// the frames on them (in queue order: the head is what arrives next), its script's host
    /// calls in order, and its timers as a set, each with its remaining time.
    private func encodeTraffic(_ index: Int, to writer: inout CanonicalWriter) {
        let entries = pending.entries
        let mine = pendingPositions(ofClient: index)
        let epoch = clients[index].epoch
        for uplink in [false, true] {
            let direction = network.directions[Network.direction(clientIndex: index, uplink: uplink)]
            direction.encode(to: &writer, keyRing: config.keyRing, clientEpoch: epoch)
            let frames = mine.filter { entries[$0].payload.isDelivery(uplink: uplink) }
            writer.write(UInt32(frames.count))
            for position in frames {
                guard case .delivery(let frame) = entries[position].payload else { continue }
                frame.encode(to: &writer, nextExpected: direction.nextExpected, clientEpoch: epoch, keyRing: config.keyRing)
            }
        }
        let calls = mine.filter { entries[$0].payload.isHostCall }
        writer.write(UInt32(calls.count))
        for position in calls {
            guard case .hostCall(_, let call) = entries[position].payload else { continue }
            call.encode(to: &writer, keyRing: config.keyRing)
        }
        writer.writeUnordered(mine.lazy.filter { entries[$0].payload.isClientTimer }) { writer, position in
            guard case .timer(_, let timer) = entries[position].payload else { return }
            timer.encode(to: &writer, client: clients[index])
            writer.writeRemaining(until: entries[position].due, from: now)
        }
    }

    /// The queue positions of client `index`'s pending events (host calls, timers, frames on
    /// its link), in queue (sequence) order; read in place, no entry copied.
    private func pendingPositions(ofClient index: Int) -> [Int] {
        let entries = pending.entries
        var mine = entries.indices.filter { entries[$0].payload.trafficOwner == index }
        mine.sort { entries[$0].sequence < entries[$1].sequence }
        return mine
    }
}

private extension PendingEvent {
    func isDelivery(uplink: Bool) -> Bool {
        if case .delivery(let envelope) = self { envelope.isUplink == uplink } else { false }
    }

    var isHostCall: Bool {
        if case .hostCall = self { true } else { false }
    }

    var isClientTimer: Bool {
        if case .timer = self { true } else { false }
    }
}

extension LinkConditions: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(latencyMean)
        writer.write(jitterMax)
        writer.writeCase(jitterDistribution)
        writer.write(lossProbability)
        writer.write(duplicationProbability)
        writer.write(reorderProbability)
        writer.writeOptional(signalingBitsPerSecond) { writer, capacity in writer.write(capacity) }
        writer.write(retransmissionTimeout)
        writer.write(downlinkBitsPerSecond)
    }
}

extension LinkDirection {
    /// How far the sender is ahead of the receiver, and the frames held for order at their
    /// positions relative to the receiver; the due-time bookkeeping is left out.
    func encode(to writer: inout CanonicalWriter, keyRing: TokenKeyRing, clientEpoch: Int) {
        writer.writeRelative(nextSent, to: nextExpected)
        writer.writeUnordered(held) { writer, frame in
            frame.encode(to: &writer, nextExpected: nextExpected, clientEpoch: clientEpoch, keyRing: keyRing)
        }
    }
}

extension ServerParticipant {
    /// A registered participant; of its keepalive counters only the pings still unanswered;
    /// its connection number relative to its client's (`writeEpoch`).
    func encode(to writer: inout CanonicalWriter, clientEpochs: [Int]) {
        info.encode(to: &writer)
        writer.writeClientIndex(clientIndex)
        writer.writeOrdered(publishedStreams)
        claims.encode(to: &writer)
        origin.encode(to: &writer)
        properties.encode(to: &writer)
        writer.writeEpoch(epoch, relativeTo: clientEpochs[clientIndex])
        writer.write(pingsSent - pongsHeard)
        writer.write(isInterrupted)
    }
}

extension StageServer {
    /// The participants as a set (their order, by participant id, only orders broadcasts to
    /// different links), and each participant id's count of streams (SUB-7); the settings are
    /// configuration.
    func encode(to writer: inout CanonicalWriter, clientEpochs: [Int]) {
        writer.writeUnordered(participants) { writer, participant in participant.encode(to: &writer, clientEpochs: clientEpochs) }
        writer.writeUnordered(streamsCreated) { writer, entry in
            writer.writeName(entry.key)
            writer.write(entry.value)
        }
    }
}

extension ServerTimer {
    /// A keepalive timer of `server`: a ping by its connection; a pong deadline by its place
    /// among the pings still unanswered (1 is the oldest), or as spent when that ping was
    /// answered or its connection is gone, never by the ever-growing ping number.
    func encode(to writer: inout CanonicalWriter, server: StageServer, clientEpochs: [Int]) {
        switch self {
        case .ping(let clientIndex, let epoch):
            writer.writeTag(0)
            writer.writeClientIndex(clientIndex)
            writer.writeEpoch(epoch, relativeTo: clientEpochs[clientIndex])
        case .pongDeadline(let clientIndex, let epoch, let number):
            writer.writeTag(1)
            writer.writeClientIndex(clientIndex)
            writer.writeEpoch(epoch, relativeTo: clientEpochs[clientIndex])
            let participant = server.index(ofClient: clientIndex).map { server.participants[$0] }
            let owed = participant.flatMap { $0.epoch == epoch && number > $0.pongsHeard ? number - $0.pongsHeard : nil }
            writer.write(owed ?? 0)
        case .reconnectGrace(let clientIndex, let epoch):
            writer.writeTag(2)
            writer.writeClientIndex(clientIndex)
            writer.writeEpoch(epoch, relativeTo: clientEpochs[clientIndex])
        }
    }
}
