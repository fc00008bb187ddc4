import Simulation
import StageCore
import StageWorld

/// STG-3: "overlapping join/refresh can yield CANCELED". A `join()` while the renderers were
/// last told `connecting` (a join or reconnect in progress) cancels that attempt: within the
/// same action the renderers are told `connecting` again, with a CANCELED join error, and a
/// `join()` from `disconnected` is told `connecting` with no error. What the renderers were
/// last told is kept from their own events, not read from the client's state, so a client
/// that forgets its attempt in progress, or reports a fresh one as cancelled, is caught.
public struct OverlappingJoinMonitor: InvariantMonitor {
    public var name: String { "overlapping-join-is-canceled" }
    public var summary: String { "a join() while connecting is told connecting with CANCELED; one from disconnected with no error" }
    public var rules: [String] { ["STG-3", "STG-2"] }
    /// Per observer, the connection state its renderers were last told (absent: disconnected).
    private var told: [String: ConnectionState] = [:]
    /// The observer whose `join()` the current action is, and whether it must be CANCELED.
    private var awaited: (observer: String, canceled: Bool, event: TraceEvent, index: Int)?

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        switch event.kind {
        case .renderer(.connectionStateChanged(let state, let error)):
            defer { told[event.observer] = state == .disconnected ? nil : state }
            guard let expected = awaited, expected.observer == event.observer else { return [] }
            awaited = nil
            let canceled = error?.code == .canceled
            guard state != .connecting || canceled != expected.canceled else { return [] }
            return [violation(event, index: index, state == .connecting ? Self.wrongError(expected.canceled, error) : "join() was told \(state.rawValue), not connecting")]
        case .renderer, .strategyQueried, .sdkError, .layout, .subscriber:
            return []
        case .hostCall(.join):
            let overdue = settle()
            if told[event.observer] != .connected { awaited = (event.observer, told[event.observer] == .connecting, event, index) }
            return overdue
        default:
            return settle()
        }
    }

    private static func wrongError(_ mustCancel: Bool, _ error: StageError?) -> String {
        let got = error.map { "\($0.code.name)" } ?? "no error"
        return mustCancel ? "join() while connecting was told connecting with \(got), not CANCELED" : "join() from disconnected was told connecting with \(got)"
    }

    public func finish(world: World) -> [Violation] {
        awaited.map { [violation($0.event, index: $0.index, "join() was told no connection state at all")] } ?? []
    }

    /// A join() whose action ended without telling its renderers a connection state.
    private mutating func settle() -> [Violation] {
        guard let expected = awaited else { return [] }
        awaited = nil
        return [violation(expected.event, index: expected.index, "join() was told no connection state at all")]
    }

    public static var keyReads: WorldReads { .clients }

    /// The observers whose renderers were last told other than what their client's view holds
    /// (`renderers-told-every-change` holds them equal after every step, so a run without a
    /// violation writes none), each with the state told, and the join awaiting its answer
    /// (none between actions of such a run).
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        let clients = world.clients
        let differing = clients.indices.filter { (told[clients[$0].name] ?? .disconnected) != clients[$0].view.local.connectionState }
        writer.writeUnordered(differing) { writer, client in
            writer.writeName(clients[client].name)
            writer.write((told[clients[client].name] ?? .disconnected).rawValue)
        }
        writer.writeOptionalName(awaited?.observer)
    }
}
