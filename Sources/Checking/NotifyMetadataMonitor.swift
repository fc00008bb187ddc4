import Simulation
import StageCore
import StageWorld

/// SIG-2, SIG-5: `connect.notifyMetadata` is sent for everyone, and every other participant
/// receives it, as the sender's app set it, as `notify.metadata` of the connection.created
/// that announces the sender. Each announcement a client receives from the service is
/// compared with the notify metadata configured for the participant it announces (the client
/// whose token names that participant id), so a value lost or changed on the way (in the
/// service, in the frame, in its decoding) is a disagreement it sees. Frames a scenario
/// injects are not the service's and are not judged.
public struct NotifyMetadataMonitor: InvariantMonitor {
    public var name: String { "notify-metadata-reaches-everyone" }
    public var summary: String { "every connection.created a client receives carries the notifyMetadata the announced participant's app sent" }
    public var rules: [String] { ["SIG-2", "SIG-5"] }

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard event.observer != "server", event.peer == "server",
              case .delivered(.participantJoined(let info, let received), _) = event.kind else { return [] }
        let clients = world.clients
        let sent = clients.indices.filter { clients[$0].claims?.participantId == info.participantId }.map { clients[$0].config.connectMetadata.notifyMetadata }
        guard !sent.isEmpty, !sent.contains(received) else { return [] }
        let told = received.map { "\($0)" } ?? "none"
        let set = sent.map { $0.map { "\($0)" } ?? "none" }.joined(separator: " or ")
        return [violation(event, index: index, "connection.created announced \(info.participantId) with notify metadata \(told), but its app sent \(set)")]
    }

    public static var keyReads: WorldReads { [] }

    /// Stateless: each verdict reads only the event and the clients' configuration.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
