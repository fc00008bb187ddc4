import Simulation
import StageWorld

/// NET-2: a partition cuts its link in the directions it names (both; uplink, client ->
/// service; downlink, service -> client) from its start until its end, and an outage (a
/// partition naming no client) cuts every link: nothing arrives over a cut direction. Every
/// frame arrival whose link the trace names is judged against the run's fault plan, read as
/// configured and compared here, not through the model's own test (`FaultPlan.cuts`), so a
/// partition applied to the wrong direction, client or moment is a disagreement it sees: a
/// delivery to the service from a client (its uplink), and a delivery, duplicate, frame held
/// for order or protocol error at a client (its downlink). Only timed runs are judged: under
/// the model checker's timekeeping a delivery happens at the last timer's moment, not at its
/// arrival time (`Timekeeping.timersOnly`).
public struct CutLinkMonitor: InvariantMonitor {
    public var name: String { "cut-links-carry-nothing" }
    public var summary: String { "no frame arrives over a link direction a partition or outage cuts at that moment" }
    public var rules: [String] { ["NET-2"] }

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard world.timekeeping == .everyEvent, !world.config.faults.partitions.isEmpty,
              let (client, uplink) = Self.arrivalLink(event) else { return [] }
        guard let partition = world.config.faults.partitions.first(where: { Self.partition($0, cuts: client, uplink: uplink, at: event.time) }) else { return [] }
        let direction = uplink ? "uplink" : "downlink"
        return [violation(event, index: index, "a frame arrived on the \(direction) of \(client) at \(event.time), which \(partition) cuts")]
    }

    /// The client whose link a frame arrival travelled and whether it went up (to the
    /// service), or nil for an event that is no arrival or whose link the trace does not name.
    static func arrivalLink(_ event: TraceEvent) -> (client: String, uplink: Bool)? {
        switch event.kind {
        case .delivered where event.observer == "server":
            return event.peer.map { ($0, true) }
        case .delivered, .duplicate, .heldForOrder, .protocolError:
            return event.observer == "server" ? nil : (event.observer, false)
        default:
            return nil
        }
    }

    /// The seed's partition, stated on its own: the client it names (every client for an
    /// outage), the directions it cuts, and the half-open span from its start to its end.
    static func partition(_ partition: Partition, cuts client: String, uplink: Bool, at time: VirtualTime) -> Bool {
        let onLink = partition.clientName.map { $0 == client } ?? true
        let inDirection: Bool
        switch partition.direction {
        case .both: inDirection = true
        case .uplink: inDirection = uplink
        case .downlink: inDirection = !uplink
        }
        return onLink && inDirection && partition.start <= time && time < partition.end
    }

    public static var keyReads: WorldReads { [] }

    /// Stateless: each verdict reads only the event and the run's fault plan.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
