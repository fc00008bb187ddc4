import Simulation
import StageCore
import StageWorld

/// A broken invariant: which monitor, which spec rules, where in the trace, and what happened.
public struct Violation: Hashable, Sendable, CustomStringConvertible {
    public var invariant: String
    public var rules: [String]
    public var time: VirtualTime
    public var observer: String
    /// Index of the offending event in the trace; nil for end-of-run checks.
    public var eventIndex: Int?
    public var message: String

    public init(invariant: String, rules: [String], time: VirtualTime, observer: String, eventIndex: Int?, message: String) {
        self.invariant = invariant
        self.rules = rules
        self.time = time
        self.observer = observer
        self.eventIndex = eventIndex
        self.message = message
    }

    public var description: String {
        "\(invariant) [\(rules.joined(separator: ", "))] at \(time) \(observer): \(message)"
    }
}

/// A safety or ordering property checked on every run, whatever drives it. Monitors read the
/// trace and the world; they never change the world (ARCHITECTURE: checkers live apart).
public protocol InvariantMonitor: Sendable {
    var name: String { get }
    var rules: [String] { get }
    /// One line saying what the monitor checks (`stagesim invariants`).
    var summary: String { get }
    /// Looks at one trace event, with the world as it is after the action that caused it.
    mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation]
    /// `observe`, told whether the event comes from the same step as the previous one (the
    /// world is then unchanged since that event): a monitor whose per-step work only reads the
    /// world may do it once per step. By default the same as `observe`.
    mutating func observe(_ event: TraceEvent, index: Int, world: World, sameStepAsPrevious: Bool) -> [Violation]
    /// Called once a step's events have all been observed, with the world the step left and
    /// the index and time of its last event: for verdicts over a whole step (what several of
    /// its events add up to). By default nothing.
    mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation]
    /// End-of-run checks, on the final world.
    func finish(world: World) -> [Violation]
    /// The eventually-checks for a quiescent world (`World.isQuiescent`), whatever the clock
    /// says: the model checker's end states and the end of a scheduled replay.
    func finishWhenQuiescent(world: World) -> [Violation]
    /// The monitor's state as far as its later verdicts in the model checker (`observe`,
    /// `finishWhenQuiescent`) can depend on it, for the state key: compact, canonical (sets and
    /// dictionaries through `writeUnordered`), names and client indices through the writer's
    /// renaming (symmetry), with nothing the checker abstracts (absolute times, counters that
    /// only number events) unless a verdict needs it. `world` is the state the key is for and
    /// is in the key too, so state the world implies is written as its difference from the
    /// world (`CanonicalWriter.writeDifference`), empty in a run without a violation: the key
    /// then splits a world state only for history the world does not keep. There is no
    /// default: a stateless monitor writes nothing and says so.
    func encodeState(into writer: inout CanonicalWriter, world: World)
    /// The parts of the world `encodeState` reads. The model checker keeps a monitor's key
    /// from a state to its successor while the monitor's state and these parts are unchanged
    /// (`MonitorSet.updateStateHashes`), so a part left out here that the key reads would
    /// merge states. By default everything.
    static var keyReads: WorldReads { get }
}

extension InvariantMonitor {
    public mutating func observe(_ event: TraceEvent, index: Int, world: World, sameStepAsPrevious: Bool) -> [Violation] {
        observe(event, index: index, world: world)
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] { [] }
    public func finish(world: World) -> [Violation] { [] }
    public func finishWhenQuiescent(world: World) -> [Violation] { finish(world: world) }
    public static var keyReads: WorldReads { .everything }

    func violation(_ event: TraceEvent, index: Int?, _ message: String) -> Violation {
        Violation(invariant: name, rules: rules, time: event.time, observer: event.observer, eventIndex: index, message: message)
    }
}

/// Runs every monitor of the catalog (or of a custom list) over a run's events and collects
/// their violations. The catalog's monitors are held as concrete values (`CatalogMonitors`),
/// so a model-checker node copies them inline, with no existential box per monitor.
public struct MonitorSet: Sendable {
    /// The catalog's monitors, run when `usesCatalog`. A custom set holds an idle catalog
    /// rather than none: an optional one would be copied and destroyed through the runtime's
    /// generic code (every field looked up by metadata), twice per model-checker successor.
    var catalog: CatalogMonitors
    let usesCatalog: Bool
    var custom: [any InvariantMonitor] = []
    public private(set) var violations: [Violation] = []
    /// Numbers trace events for violations; no verdict depends on it, so no key holds it.
    private var eventCount = 0

    /// The catalog's monitors; `settle` as in `InvariantCatalog.all(settle:)`.
    public init(settle: VirtualDuration = .seconds(5)) {
        catalog = CatalogMonitors(settle: settle)
        usesCatalog = true
    }

    /// A custom list of monitors (tests, focused runs).
    public init(_ monitors: [any InvariantMonitor]) {
        catalog = CatalogMonitors(settle: .seconds(5))
        usesCatalog = false
        custom = monitors
    }

    /// The monitors, in their order.
    public var monitors: [any InvariantMonitor] {
        var collector = MonitorCollector()
        read(&collector)
        return collector.monitors
    }

    public mutating func observe(_ events: [TraceEvent], world: World) {
        guard let first = events.first else { return }
        var observer = EventObserver(event: first, index: eventCount, world: world)
        for (position, event) in events.enumerated() {
            (observer.event, observer.index, observer.sameStepAsPrevious) = (event, eventCount, position > 0)
            visit(observer)
            eventCount += 1
        }
        let ender = StepEnder(world: world, lastEventIndex: eventCount - 1, time: events[events.count - 1].time, sink: observer.sink)
        visit(ender)
        if !ender.sink.violations.isEmpty { violations += ender.sink.violations }
    }

    public mutating func finish(world: World) {
        var finisher = Finisher(world: world, quiescent: false)
        read(&finisher)
        violations += finisher.violations
    }

    /// The eventually-checks of every monitor for a quiescent world.
    public func quiescentViolations(world: World) -> [Violation] {
        var finisher = Finisher(world: world, quiescent: true)
        read(&finisher)
        return finisher.violations
    }

    /// Every monitor's state (`InvariantMonitor.encodeState`), in order, for the model
    /// checker's state key; an empty set writes nothing. Violations found so far and the
    /// event counter stay out: a node with a violation ends the search.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        var encoder = StateEncoder(writer: CanonicalWriter(reservingCapacity: 0), world: world)
        swap(&encoder.writer, &writer)
        read(&encoder)
        swap(&encoder.writer, &writer)
    }

    private mutating func visit<Visitor: MonitorVisitor>(_ visitor: Visitor) {
        if usesCatalog { catalog.visit(visitor) }
        for position in custom.indices { visitor.visit(&custom[position]) }
    }

    /// Runs `reader` on every monitor in order without copying the set.
    func read<Reader: MonitorReader>(_ reader: inout Reader) {
        if usesCatalog { catalog.read(&reader) }
        for monitor in custom { reader.read(monitor) }
    }
}

/// An operation that only reads every monitor of a set, generic over the monitor's concrete type.
protocol MonitorReader {
    mutating func read<Monitor: InvariantMonitor>(_ monitor: Monitor)
}

/// An operation run on every monitor of a set, generic over the monitor's concrete type. It
/// changes the monitors, never itself (what it collects goes to a `ViolationSink`): a visitor
/// passed by reference would have every field it hands a monitor (the world, the event)
/// copied for each monitor.
protocol MonitorVisitor {
    func visit<Monitor: InvariantMonitor>(_ monitor: inout Monitor)
}

/// Shows the events of one step to every monitor, event by event; made once per step, so the
/// world is copied into it once.
private struct EventObserver: MonitorVisitor {
    var event: TraceEvent
    var index: Int
    let world: World
    var sameStepAsPrevious = false
    let sink = ViolationSink()

    init(event: TraceEvent, index: Int, world: World) {
        self.event = event
        self.index = index
        self.world = world
    }

    func visit<Monitor: InvariantMonitor>(_ monitor: inout Monitor) {
        let found = monitor.observe(event, index: index, world: world, sameStepAsPrevious: sameStepAsPrevious)
        if !found.isEmpty { sink.violations += found }
    }
}

/// Where a visitor collects violations (`MonitorVisitor`).
private final class ViolationSink {
    var violations: [Violation] = []
}

/// Ends a step for every monitor (`InvariantMonitor.endOfStep`), after its events.
private struct StepEnder: MonitorVisitor {
    let world: World
    let lastEventIndex: Int
    let time: VirtualTime
    let sink: ViolationSink

    func visit<Monitor: InvariantMonitor>(_ monitor: inout Monitor) {
        let found = monitor.endOfStep(world: world, lastEventIndex: lastEventIndex, time: time)
        if !found.isEmpty { sink.violations += found }
    }
}

private struct Finisher: MonitorReader {
    let world: World
    let quiescent: Bool
    var violations: [Violation] = []

    mutating func read<Monitor: InvariantMonitor>(_ monitor: Monitor) {
        violations += quiescent ? monitor.finishWhenQuiescent(world: world) : monitor.finish(world: world)
    }
}

private struct StateEncoder: MonitorReader {
    var writer: CanonicalWriter
    let world: World

    mutating func read<Monitor: InvariantMonitor>(_ monitor: Monitor) {
        monitor.encodeState(into: &writer, world: world)
    }
}

struct MonitorCollector: MonitorReader {
    var monitors: [any InvariantMonitor] = []

    mutating func read<Monitor: InvariantMonitor>(_ monitor: Monitor) { monitors.append(monitor) }
}

extension CanonicalWriter {
    /// A participant name that may be absent, through the renaming.
    mutating func writeOptionalName(_ name: String?) {
        guard let name else { return write(UInt8(0)) }
        write(UInt8(1))
        writeName(name)
    }

    /// A monitor's set as its difference from `expected`, what the world implies it holds
    /// (the elements in exactly one of them). The world is in the key too, so the set is
    /// recovered exactly and the key stays sound whatever `expected` says; a monitor that
    /// agrees with its world writes an empty difference, so it splits no world state.
    mutating func writeDifference<Element: Hashable>(_ state: Set<Element>, from expected: Set<Element>, _ encode: (inout CanonicalWriter, Element) -> Void) {
        writeUnordered(state.symmetricDifference(expected), encode)
    }

    /// A monitor's map as its difference from `expected`, what the world implies it holds:
    /// each key whose value differs, with the monitor's value (a tag for an absent one). As
    /// for sets, the map is recovered exactly from the world and the difference.
    mutating func writeDifference<Key: Hashable, Value: Equatable>(
        _ state: [Key: Value], from expected: [Key: Value],
        key encodeKey: (inout CanonicalWriter, Key) -> Void, value encodeValue: (inout CanonicalWriter, Value) -> Void
    ) {
        let differing = Set(state.keys).union(expected.keys).filter { state[$0] != expected[$0] }
        writeUnordered(differing) { writer, key in
            encodeKey(&writer, key)
            guard let value = state[key] else { return writer.write(UInt8(0)) }
            writer.write(UInt8(1))
            encodeValue(&writer, value)
        }
    }
}

extension World {
    /// Nothing in flight, no host call left and no client timer pending (the stage service's
    /// keepalive timers may be): nothing but keepalive can happen any more, so every
    /// eventually-property must hold now.
    public var isQuiescent: Bool {
        pending.entries.allSatisfy { entry in
            if case .serverTimer = entry.payload { return true }
            return false
        }
    }
}
