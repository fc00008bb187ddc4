import Simulation
import StageCore

/// What never changes during a run: the stage, the keys the service trusts, its keepalive and
/// capacity, the fault plan, and each client's configuration and link, in client order. One
/// instance is shared by every copy of a `World` (and its stage service), so copying a world
/// never copies settings, and it is hashed once per run (`fingerprint`); the model checker's
/// state key leaves it out, since every state of one run has the same configuration.
public final class WorldConfig: Hashable, Sendable {
    public let stageId: String
    /// The stage's ARN-like id every token's `resource` must name (TOK-2).
    public let resource: String
    /// The maximum number of simultaneous publishers (STG-4).
    public let publisherCapacity: Int
    /// The app keys and the service's own key the service trusts (TOK-3).
    public let keyRing: TokenKeyRing
    /// How often the service pings each connection and how long it waits for a pong; every
    /// client's watchdog follows it (SIG-6).
    public let keepalive: KeepalivePolicy
    /// Partitions, outages and keepalive silences (NET-2, SIG-6).
    public let faults: FaultPlan
    /// Per client index (clients ordered by name, so that indices never depend on input order).
    public let clients: [ClientConfig]
    /// Per client index: the conditions of its link (NET-2).
    public let links: [LinkConditions]
    /// XXH3-64 of the canonical encoding of every setting above, computed once.
    public let fingerprint: UInt64

    /// The configuration of a world of `clients`, each on its link in `links` or on
    /// `defaultLink`. The stage service trusts `keyRing` (by default the standard app and
    /// service keys).
    public init(
        stageId: String, clients: [ClientConfig], links: [String: LinkConditions] = [:], defaultLink: LinkConditions = LinkConditions(),
        keyRing: TokenKeyRing = StageKeys.standard.keyRing, faults: FaultPlan = FaultPlan(), keepalive: KeepalivePolicy = KeepalivePolicy(),
        publisherCapacity: Int = 12
    ) {
        let sorted = clients.sorted { $0.name < $1.name }
        self.stageId = stageId
        self.resource = StageKeys.resource(forStage: stageId)
        self.publisherCapacity = publisherCapacity
        self.keyRing = keyRing
        self.keepalive = keepalive
        self.faults = faults
        self.clients = sorted
        self.links = sorted.map { links[$0.name] ?? defaultLink }
        var writer = CanonicalWriter(reservingCapacity: 1024)
        Self.encode(stageId: stageId, publisherCapacity: publisherCapacity, keyRing: keyRing, keepalive: keepalive,
                    faults: faults, clients: sorted, links: self.links, to: &writer)
        self.fingerprint = writer.hash64()
    }

    /// The canonical encoding the fingerprint hashes: every setting, fault times included
    /// (the state encoding leaves absolute times out; the configuration has nothing else to
    /// tell two runs apart), tokens as their claims and verdict, so that it is the same in
    /// every process.
    private static func encode(
        stageId: String, publisherCapacity: Int, keyRing: TokenKeyRing, keepalive: KeepalivePolicy,
        faults: FaultPlan, clients: [ClientConfig], links: [LinkConditions], to writer: inout CanonicalWriter
    ) {
        writer.write(stageId)
        writer.write(publisherCapacity)
        keyRing.encode(to: &writer)
        keepalive.encode(to: &writer)
        writer.write(UInt32(faults.partitions.count))
        for partition in faults.partitions {
            writer.writeOptional(partition.clientName) { writer, name in writer.write(name) }
            writer.writeCase(partition.direction)
            writer.write(partition.start.nanoseconds)
            writer.write(partition.end.nanoseconds)
        }
        writer.write(UInt32(faults.keepaliveSilences.count))
        for silence in faults.keepaliveSilences {
            writer.write(silence.clientName)
            writer.write(silence.start.nanoseconds)
            writer.write(silence.end.nanoseconds)
        }
        writer.write(UInt32(clients.count))
        for (client, link) in zip(clients, links) {
            client.encode(to: &writer, keyRing: keyRing)
            link.encode(to: &writer)
        }
    }

    public static func == (lhs: WorldConfig, rhs: WorldConfig) -> Bool {
        lhs === rhs || (lhs.fingerprint == rhs.fingerprint && lhs.stageId == rhs.stageId && lhs.publisherCapacity == rhs.publisherCapacity
            && lhs.keyRing == rhs.keyRing && lhs.keepalive == rhs.keepalive && lhs.faults == rhs.faults
            && lhs.clients == rhs.clients && lhs.links == rhs.links)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }
}
