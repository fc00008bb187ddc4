import Checking
import StageWorld

/// The one loop every driver steps the world through (ARCHITECTURE, "One loop"): apply an
/// action, record its events (when recording), let the monitors observe. The drivers differ
/// only in how they choose the next action: the simulator by time and seeded losses, a replay
/// from its schedule, the checker every enabled action in turn.
public struct StepLoop: Sendable {
    /// The world after the last step. Drivers may change it between steps (schedule a host
    /// call, inject a frame); every action goes through `step`.
    public var world: World
    /// The monitors watching every step.
    public private(set) var monitors: MonitorSet
    /// The run so far; nil when the loop does not record (the model checker keeps no trace).
    public private(set) var recording: Recording?

    /// `recording`: whether to keep the actions and their events.
    public init(world: World, monitors: MonitorSet = MonitorSet([]), recording: Bool = false) {
        self.init(world: world, monitors: monitors, recording: recording ? Recording() : nil)
    }

    /// `recording`: where the run goes (a streamed trace keeps no events); nil records nothing.
    public init(world: World, monitors: MonitorSet, recording: Recording?) {
        self.world = world
        self.monitors = monitors
        self.recording = recording
    }

    /// Applies `action` (`World.applyReportingChanges`; `host` supplies Swift-API strategy
    /// objects), records it and its events, and lets every monitor observe the events with the
    /// world after the action.
    @discardableResult
    public mutating func step(_ action: Action, host: (any HostStrategies)? = nil) -> StepOutcome {
        let before = monitors.violations.count
        let (events, changed) = world.applyReportingChanges(action, host: host)
        recording?.record(action, events: events)
        monitors.observe(events, world: world)
        let found = monitors.violations.count > before ? Array(monitors.violations[before...]) : []
        return StepOutcome(events: events, changed: changed, violations: found)
    }

    /// The monitors' end-of-run checks on the current world (a timed run's end).
    public mutating func finish() { monitors.finish(world: world) }

    /// The recorded actions; empty when the loop does not record.
    public var actions: [Action] { recording?.actions ?? [] }

    /// The recorded events; empty when the loop does not record.
    public var trace: Trace { recording?.trace ?? Trace() }
}

/// What a recording loop kept: the actions taken, a schedule that replays the run exactly, and
/// the trace of their events. A trace that keeps no events (streamed) keeps no actions either:
/// such a run keeps nothing that grows with its length.
public struct Recording: Sendable {
    public var actions: [Action] = []
    public var trace: Trace

    public init(trace: Trace = Trace()) { self.trace = trace }

    mutating func record(_ action: Action, events: [TraceEvent]) {
        if trace.keepsEvents { actions.append(action) }
        trace.append(contentsOf: events)
    }
}

/// What one step did: its events, the world components it changed (the checker rehashes only
/// those), and the violations the monitors found in it.
public struct StepOutcome: Sendable {
    public var events: [TraceEvent]
    public var changed: WorldComponents
    public var violations: [Violation]
}
