import Simulation
import StageCore
import StageWorld

/// TOK-10 (ext): one token, one connection. When the stage service drops a participant's
/// connection because its token joined again from another client (`ejected(id,
/// "token-reused")`), it tells the earlier holder: in the same step an `ejected` frame goes to
/// every other client whose token names that participant id and that believes itself
/// connected, so it learns it is disconnected (unless the frame is lost) instead of waiting
/// for its keepalive. A holder already reconnecting has left the dropped connection (a frame
/// on it goes nowhere, NET-3) and is not judged. Read from the frames the step put in
/// flight, not from the service.
public struct TokenReuseMonitor: InvariantMonitor {
    public var name: String { "token-reuse-tells-the-earlier-holder" }
    public var summary: String { "a connection the service drops because its token joined again is sent an ejected frame in the same step" }
    public var rules: [String] { ["TOK-10"] }
    /// Pending events scheduled from this sequence on were scheduled by the current step.
    private var stepStartSequence: UInt64 = 0
    /// The world's next sequence number at the last event observed.
    private var nextSequenceSeen: UInt64 = 0

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        observe(event, index: index, world: world, sameStepAsPrevious: false)
    }

    public mutating func observe(_ event: TraceEvent, index: Int, world: World, sameStepAsPrevious: Bool) -> [Violation] {
        if !sameStepAsPrevious { stepStartSequence = nextSequenceSeen }
        nextSequenceSeen = world.pending.nextSequence
        guard event.observer == "server", case .service(.ejected(let id, "token-reused")) = event.kind else { return [] }
        let holders = world.clients.indices.filter { world.clients[$0].claims?.participantId == id }
        let current = world.server.participants.first { $0.info.participantId == id }?.clientIndex
        let untold = holders.filter { client in
            client != current && world.clients[client].view.local.connectionState == .connected && !ejectionSent(to: client, world: world)
        }
        return untold.map { violation(event, index: index, "the service dropped \(world.clients[$0].name)'s connection for its token joining again (\(id)), but sent it no ejected frame") }
    }

    /// Whether the current step sent `client` an `ejected` frame.
    private func ejectionSent(to client: Int, world: World) -> Bool {
        world.pending.entries.contains { entry in
            guard entry.sequence >= stepStartSequence, case .delivery(let envelope) = entry.payload,
                  case .client(client) = envelope.to, case .success(.ejected) = envelope.decoded() else { return false }
            return true
        }
    }

    /// Where the last observed step's events were scheduled from, relative to the world's next
    /// sequence number (ever-growing sequence numbers stay out of the key, as in the world's
    /// encoding); the step start is reset by the next step's first event.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.write(Int(Int64(bitPattern: world.pending.nextSequence &- nextSequenceSeen)))
    }
}
