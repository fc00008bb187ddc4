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
    /// End-of-run checks, on the final world.
    func finish(world: World) -> [Violation]
    /// The eventually-checks for a quiescent world (`World.isQuiescent`), whatever the clock
    /// says: the model checker's end states and the end of a scheduled replay.
    func finishWhenQuiescent(world: World) -> [Violation]
}

extension InvariantMonitor {
    public func finish(world: World) -> [Violation] { [] }
    public func finishWhenQuiescent(world: World) -> [Violation] { finish(world: world) }

    func violation(_ event: TraceEvent, index: Int?, _ message: String) -> Violation {
        Violation(invariant: name, rules: rules, time: event.time, observer: event.observer, eventIndex: index, message: message)
    }
}

/// Runs every monitor of the catalog over a run's events and collects their violations.
public struct MonitorSet: Sendable {
    public private(set) var monitors: [any InvariantMonitor]
    public private(set) var violations: [Violation] = []
    private var eventCount = 0

    public init(_ monitors: [any InvariantMonitor] = InvariantCatalog.all()) { self.monitors = monitors }

    public mutating func observe(_ events: [TraceEvent], world: World) {
        for event in events {
            for position in monitors.indices {
                violations += monitors[position].observe(event, index: eventCount, world: world)
            }
            eventCount += 1
        }
    }

    public mutating func finish(world: World) {
        for monitor in monitors { violations += monitor.finish(world: world) }
    }

    /// The eventually-checks of every monitor for a quiescent world.
    public func quiescentViolations(world: World) -> [Violation] {
        monitors.flatMap { $0.finishWhenQuiescent(world: world) }
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
