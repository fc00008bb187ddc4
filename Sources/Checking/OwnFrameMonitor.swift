import Signaling
import Simulation
import StageWorld

/// SIG-3, SIG-4, SIG-8: the stage's own signaling is understood. Every frame the stage
/// service or a client sends encodes its values as JSON (SIG-3) that the receiver parses back
/// (SIG-4) into a message it accepts: a protocol error (a frame that does not decode, or a
/// message contradicting what its client knows) comes only from a frame injected from outside
/// (a scenario's `inject` step, a hostile-input test). A client handed an injected frame, and
/// the service's frames from it, are not judged from then on: an accepted injected message
/// may leave it believing what the service never said. Nor is a client's connect that carries
/// host metadata nested too deep for any frame (`hostMetadataTooDeep`). An injected frame's
/// protocol error must still say why the frame was refused (SIG-8: a clear, logged error).
public struct OwnFrameMonitor: InvariantMonitor {
    public var name: String { "own-frames-are-understood" }
    public var summary: String { "no frame the service or a client sends is a protocol error at its receiver; only injected frames are" }
    public var rules: [String] { ["SIG-3", "SIG-4", "SIG-8"] }
    /// Names of the clients that were handed an injected frame (not judged from then on).
    private var heardInjectedFrames: Set<String> = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        if event.peer == TraceEvent.injectedSender {
            heardInjectedFrames.insert(event.observer)
            guard case .protocolError(let frame, let reason) = event.kind, reason.isEmpty else { return [] }
            return [violation(event, index: index, "an injected frame was a protocol error at \(event.observer) with no reason given; frame \(frame.prefix(160))")]
        }
        guard case .protocolError(let frame, let reason) = event.kind else { return [] }
        let client = event.observer == "server" ? event.peer : event.observer
        guard let client, !heardInjectedFrames.contains(client) else { return [] }
        if event.observer == "server", Self.hostMetadataTooDeep(of: client, world: world) { return [] }
        let sender = event.peer ?? "its peer"
        return [violation(event, index: index, "a frame \(sender) sent was a protocol error at \(event.observer): \(reason); frame \(frame.prefix(160))")]
    }

    /// Whether the host gave `client` connect metadata nested too deep for any frame: with
    /// the frame's own level, over the JSON depth limit every reader applies (SIG-8). The
    /// scenario loader refuses such metadata; the Swift API passes it on, and the service
    /// cannot read that client's connect, which is the host's doing, not the stage's.
    static func hostMetadataTooDeep(of client: String, world: World) -> Bool {
        guard let index = world.clientIndex(named: client) else { return false }
        let metadata = world.clients[index].config.connectMetadata
        return [metadata.metadata, metadata.notifyMetadata].contains { value in
            value.map { $0.depth + 1 > JSONValue.maximumDepth } ?? false
        }
    }

    public static var keyReads: WorldReads { [] }

    /// The clients that heard an injected frame, through the renaming.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.writeUnordered(heardInjectedFrames) { writer, name in writer.writeName(name) }
    }
}
