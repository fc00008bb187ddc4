import Simulation
import StageCore

extension World {
    /// Writes the world's exploration state: everything that decides its future behaviour, with absolute time left out.
    ///
    /// Configuration: `config` (settings, links, fault plan) is the same in every state of a
    /// run, so it is not written; a key is comparable only with keys of the same configuration
    /// (`WorldConfig.fingerprint` tells configurations apart).
    ///
    /// Time abstraction: no clock, due times, link busy times or stored times; no network PRNG
    /// (the checker runs without jitter or duplication, where draws only shift times); no
    /// ever-growing counters (queue sequence numbers, ping counts): transport numbers are
    /// written relative to the receiving side, keepalive timers as current or stale.
    /// Symmetry: names and client indices go through the writer's renaming maps, clients are
    /// written in the order of their images, and collections ordered by name as sets.
    public func encodeExplorationState(into writer: inout CanonicalWriter) {
        let pending = PendingByClient(self)
        server.encode(to: &writer)
        writer.write(UInt32(clients.count))
        for index in clients.indices.sorted(by: { writer.image(ofClient: $0) < writer.image(ofClient: $1) }) {
            encodeClient(index, pending: pending.clients[index], to: &writer)
        }
        writer.writeUnordered(pending.serverTimers) { writer, timer in timer.encode(to: &writer, server: server) }
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

    /// One client with everything pending for it: both directions of
    /// its link with the frames on them (in queue order: the head is what arrives next), its
    /// script's host calls in order, and its timers as a set.
    private func encodeClient(_ index: Int, pending: PendingByClient.ClientEvents, to writer: inout CanonicalWriter) {
        clients[index].encode(to: &writer, keyRing: config.keyRing)
        for uplink in [false, true] {
            let direction = network.directions[Network.direction(clientIndex: index, uplink: uplink)]
            direction.encode(to: &writer, keyRing: config.keyRing)
            let frames = pending.deliveries[uplink ? 1 : 0]
            writer.write(UInt32(frames.count))
            for frame in frames { frame.encode(to: &writer, nextExpected: direction.nextExpected, keyRing: config.keyRing) }
        }
        writer.write(UInt32(pending.hostCalls.count))
        for call in pending.hostCalls { call.encode(to: &writer, keyRing: config.keyRing) }
        writer.writeUnordered(pending.timers) { writer, timer in timer.encode(to: &writer, client: clients[index]) }
    }
}

/// The pending events of a world sorted out per client, each list in queue (sequence) order.
private struct PendingByClient {
    struct ClientEvents {
        var hostCalls: [HostCall] = []
        var timers: [ClientTimer] = []
        /// Downlink frames, then uplink frames.
        var deliveries: [[Envelope]] = [[], []]
    }

    var clients: [ClientEvents]
    var serverTimers: [ServerTimer] = []

    init(_ world: World) {
        clients = Array(repeating: ClientEvents(), count: world.clients.count)
        for entry in world.pending.entries.sorted(by: { $0.sequence < $1.sequence }) {
            switch entry.payload {
            case .hostCall(let index, let call): clients[index].hostCalls.append(call)
            case .timer(let index, let timer): clients[index].timers.append(timer)
            case .serverTimer(let timer): serverTimers.append(timer)
            case .delivery(let envelope): clients[envelope.clientIndex].deliveries[envelope.isUplink ? 1 : 0].append(envelope)
            }
        }
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
    func encode(to writer: inout CanonicalWriter, keyRing: TokenKeyRing) {
        writer.writeRelative(nextSent, to: nextExpected)
        writer.writeUnordered(held) { writer, frame in frame.encode(to: &writer, nextExpected: nextExpected, keyRing: keyRing) }
    }
}

extension ServerParticipant: ExplorationEncodable {
    /// A registered participant; of its keepalive counters only the pings still unanswered.
    func encode(to writer: inout CanonicalWriter) {
        info.encode(to: &writer)
        writer.writeClientIndex(clientIndex)
        writer.writeOrdered(publishedStreams)
        claims.encode(to: &writer)
        origin.encode(to: &writer)
        properties.encode(to: &writer)
        writer.write(epoch)
        writer.write(pingsSent - pongsHeard)
        writer.write(isInterrupted)
    }
}

extension StageServer: ExplorationEncodable {
    /// The participants as a set (their order, by participant id, only orders broadcasts to
    /// different links); the settings are configuration.
    func encode(to writer: inout CanonicalWriter) {
        writer.writeUnordered(participants)
    }
}

extension ServerTimer {
    /// A keepalive timer of `server`: a ping by its connection; a pong deadline by its place
    /// among the pings still unanswered (1 is the oldest), or as spent when that ping was
    /// answered or its connection is gone, never by the ever-growing ping number.
    func encode(to writer: inout CanonicalWriter, server: StageServer) {
        switch self {
        case .ping(let clientIndex, let epoch):
            writer.writeTag(0)
            writer.writeClientIndex(clientIndex)
            writer.write(epoch)
        case .pongDeadline(let clientIndex, let epoch, let number):
            writer.writeTag(1)
            writer.writeClientIndex(clientIndex)
            writer.write(epoch)
            let participant = server.index(ofClient: clientIndex).map { server.participants[$0] }
            let owed = participant.flatMap { $0.epoch == epoch && number > $0.pongsHeard ? number - $0.pongsHeard : nil }
            writer.write(owed ?? 0)
        case .reconnectGrace(let clientIndex, let epoch):
            writer.writeTag(2)
            writer.writeClientIndex(clientIndex)
            writer.write(epoch)
        }
    }
}
