import Simulation
import StageCore
import StageWorld

/// SUB-4 on the publisher's side, with SIG-6: a drop may be on either side. While the service
/// has a reconnect grace (`keepalive.reconnectGrace`, assumed), a publisher whose pongs stopped
/// is interrupted, not dropped: its subscribers see a disconnect and then a reconnect or
/// `streamDestroyed`, never a stream destroyed at once and a new one. So the service never
/// drops a publishing participant for an unanswered ping while the grace is on.
public struct PublisherDropMonitor: InvariantMonitor {
    public var name: String { "dropped-publisher-is-interrupted" }
    public var summary: String { "with a reconnect grace, a publisher whose pongs stopped is interrupted, not dropped at once" }
    public var rules: [String] { ["SUB-4", "SIG-6"] }
    /// The participant the current service step removed while it was publishing.
    private var leftWhilePublishing: String?

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard case .service(let service) = event.kind else { return [] }
        switch service {
        case .left(let id, let wasPublishing):
            leftWhilePublishing = wasPublishing ? id : nil
        case .ejected(let id, let reason) where leftWhilePublishing == id:
            leftWhilePublishing = nil
            guard reason.hasPrefix("ping"), world.config.keepalive.reconnectGrace > .zero else { return [] }
            return [violation(event, index: index, "the stage service dropped publisher \(id) at once (\(reason)) instead of interrupting it for the reconnect grace (\(world.config.keepalive.reconnectGrace))")]
        default:
            leftWhilePublishing = nil
        }
        return []
    }

    public static var keyReads: WorldReads { [] }

    /// The participant the last service step removed while publishing, if any (SUB-4).
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.writeOptionalName(leftWhilePublishing)
    }
}
