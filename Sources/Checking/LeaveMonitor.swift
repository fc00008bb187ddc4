import Simulation
import StageCore
import StageWorld

/// STG-1, STG-2: `leave()` leaves. Whatever the client was doing (connected, joining, or
/// reconnecting after a lost connection), the action of the `leave()` call ends with the
/// client disconnected: a join or reconnect in progress is abandoned, not finished later.
public struct LeaveMonitor: InvariantMonitor {
    public var name: String { "leave-disconnects-at-once" }
    public var summary: String { "a leave() call ends its action with the client disconnected, whether it was connected or still connecting" }
    public var rules: [String] { ["STG-1", "STG-2"] }
    /// The clients that called leave() in the current action, with the event; emptied at its end.
    private var leaving: [(observer: String, index: Int)] = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        if case .hostCall(.leave) = event.kind { leaving.append((event.observer, index)) }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        defer { leaving.removeAll(keepingCapacity: true) }
        return leaving.compactMap { call in
            guard let client = world.clientIndex(named: call.observer) else { return nil }
            let state = world.clients[client].view.local.connectionState
            guard state != .disconnected && state != .errored else { return nil }
            return Violation(invariant: name, rules: rules, time: time, observer: call.observer, eventIndex: call.index, message: "leave() left it \(state.rawValue)")
        }
    }

    /// Between actions it holds nothing: it writes nothing.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
