import Simulation
import StageCore
import StageWorld

/// TOK-10 (ext): one token, one connection. When the stage service drops a participant's
/// connection because its token joined again from another client (`ejected(id,
/// "token-reused")`), it tells the earlier holder: in the same step an `ejected` frame goes to
/// every other client whose token names that participant id and that believes itself
/// connected, so it learns it is disconnected (unless the frame is lost) instead of waiting
/// for its keepalive. A holder already reconnecting has left the dropped connection (a frame
/// on it goes nowhere, NET-3) and is not judged. Read from the frames in flight after the
/// step, not from the service. And such an ejection needs another client: a join from the
/// client the service holds the participant for is that client's retried join or reconnect
/// (STG-3, NET-3), which keeps the participant, so some client other than the participant's
/// holder after the step must hold a token naming it.
public struct TokenReuseMonitor: InvariantMonitor {
    public var name: String { "token-reuse-tells-the-earlier-holder" }
    public var summary: String { "a connection the service drops because its token joined again is sent an ejected frame in the same step; the token joined again from another client" }
    public var rules: [String] { ["TOK-10"] }

    public init() {}

    public func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard event.observer == "server", case .service(.ejected(let id, "token-reused")) = event.kind else { return [] }
        let holders = world.clients.indices.filter { world.clients[$0].claims?.participantId == id }
        let current = world.server.participants.first { $0.info.participantId == id }?.clientIndex
        guard holders.contains(where: { $0 != current }) else {
            return [violation(event, index: index, "the service dropped \(id)'s connection for its token joining again, but no other client holds a token for \(id): a join from its own client is a rejoin")]
        }
        let untold = holders.filter { client in
            client != current && world.clients[client].view.local.connectionState == .connected && !ejectionSent(to: client, world: world)
        }
        return untold.map { violation(event, index: index, "the service dropped \(world.clients[$0].name)'s connection for its token joining again (\(id)), but sent it no ejected frame") }
    }

    /// Whether an `ejected` frame to `client` is in flight: the step's own, or one an earlier
    /// ejection sent that is still travelling, which can only make the check more lenient.
    private func ejectionSent(to client: Int, world: World) -> Bool {
        world.pending.entries.contains { entry in
            guard case .delivery(let envelope) = entry.payload,
                  case .client(client) = envelope.to, case .success(.ejected) = envelope.decoded() else { return false }
            return true
        }
    }

    /// Stateless: each verdict reads only the event and the frames in flight.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}

    public static var keyReads: WorldReads { [] }
}
