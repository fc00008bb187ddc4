#if canImport(Glibc)
import Glibc
#endif
import Simulation
import StageWorld

/// The parts of a world that a monitor's state key (`InvariantMonitor.encodeState`) reads, or
/// that a step changed. The model checker keeps a monitor's key hash from a state to its
/// successor when the monitor's own state is unchanged and none of the parts its key reads
/// changed (`MonitorSet.updateStateHashes`).
public struct WorldReads: OptionSet, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Any client's own state (its SDK and renderers' view, its subscribers): the world
    /// components `2i + 1`, which only `World.input` changes and marks.
    public static let clients = WorldReads(rawValue: 1 << 0)
    /// The stage service's state (participants, connections): component 0, which only
    /// `World.serve` changes and marks.
    public static let service = WorldReads(rawValue: 1 << 1)
    /// What is pending (the queue and its sequence numbers) and the links: every schedule,
    /// removal and link change marks the component of the event's owner, so any marked
    /// component counts.
    public static let pending = WorldReads(rawValue: 1 << 2)
    /// The clock.
    public static let clock = WorldReads(rawValue: 1 << 3)
    public static let everything: WorldReads = [.clients, .service, .pending, .clock]

    /// What a step changed: the components it reported (`World.applyReportingChanges`) and
    /// whether it moved the clock.
    public init(changed: WorldComponents, clientCount: Int, clockMoved: Bool) {
        self = clockMoved ? .clock : []
        if changed.contains(component: 0) { formUnion([.service, .pending]) }
        for client in 0..<clientCount {
            if changed.contains(component: 2 * client + 1) { formUnion([.clients, .pending]) }
            if changed.contains(component: 2 * client + 2) { insert(.pending) }
        }
    }
}

extension MonitorSet {
    /// Each monitor's state key (`InvariantMonitor.encodeState`) hashed on its own, in order:
    /// what the model checker keys a state with in place of the whole encoding, and keeps per
    /// state so that a successor rehashes only the monitors that may have changed.
    public func stateHashes(world: World, scratch: inout CanonicalWriter) -> [UInt64] {
        var hasher = StateHasher(world: world, writer: CanonicalWriter(reservingCapacity: 0))
        swap(&hasher.writer, &scratch)
        read(&hasher)
        swap(&hasher.writer, &scratch)
        return hasher.hashes
    }

    /// Brings `hashes`, the `stateHashes` of `earlier` (the set this one was copied from
    /// before a step), up to date with this set and `world`, the world after that step.
    /// A catalog monitor keeps its hash when its stored bytes equal its earlier copy's (see
    /// `haveSameBytes`) and its `keyReads` are disjoint from `changed`; every other monitor,
    /// and every custom one, is hashed again.
    public func updateStateHashes(_ hashes: inout [UInt64], since earlier: MonitorSet, world: World, changed: WorldReads, scratch: inout CanonicalWriter) {
        var updater = StateHashUpdater(world: world, changed: changed, writer: CanonicalWriter(reservingCapacity: 0))
        swap(&updater.hashes, &hashes)
        swap(&updater.writer, &scratch)
        if usesCatalog && earlier.usesCatalog { catalog.readPairs(earlier.catalog, &updater) }
        for monitor in custom { updater.rehash(monitor) }
        swap(&updater.writer, &scratch)
        swap(&updater.hashes, &hashes)
    }
}

/// Whether two values of a monitor type have the same stored bytes. A monitor is a value:
/// plain fields, and copy-on-write containers and strings that are never written in place
/// while shared (no monitor holds a class instance it changes). A copy made before a step
/// shares every buffer with its original, and a write during the step gives the written
/// container a new buffer, so equal bytes mean that nothing was written. The converse need
/// not hold (a container written back to an equal value, padding): then the hash is just
/// recomputed. A monitor with no stored state has no bytes and is always the same.
func haveSameBytes<Value>(_ left: Value, _ right: Value) -> Bool {
    let size = MemoryLayout<Value>.size
    guard size > 0 else { return true }
    return withUnsafeBytes(of: left) { leftBytes in
        withUnsafeBytes(of: right) { rightBytes in memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, size) == 0 }
    }
}

/// Hashes every monitor's state key, in order.
private struct StateHasher: MonitorReader {
    let world: World
    var writer: CanonicalWriter
    var hashes: [UInt64] = []

    mutating func read<Monitor: InvariantMonitor>(_ monitor: Monitor) {
        writer.reset()
        monitor.encodeState(into: &writer, world: world)
        hashes.append(writer.hash64())
    }
}

/// Walks a monitor set beside the copy it was made from, rehashing the monitors whose key may
/// have changed (`MonitorSet.updateStateHashes`).
private struct StateHashUpdater: MonitorPairReader {
    let world: World
    let changed: WorldReads
    var writer: CanonicalWriter
    var hashes: [UInt64] = []
    var position = 0

    mutating func read<Monitor: InvariantMonitor>(_ monitor: Monitor, earlier: Monitor) {
        if Monitor.keyReads.isDisjoint(with: changed) && haveSameBytes(monitor, earlier) {
            position += 1
        } else {
            rehash(monitor)
        }
    }

    mutating func rehash(_ monitor: some InvariantMonitor) {
        writer.reset()
        monitor.encodeState(into: &writer, world: world)
        hashes[position] = writer.hash64()
        position += 1
    }
}

/// An operation that reads every monitor of a set beside the same monitor of another set.
protocol MonitorPairReader {
    mutating func read<Monitor: InvariantMonitor>(_ monitor: Monitor, earlier: Monitor)
}
