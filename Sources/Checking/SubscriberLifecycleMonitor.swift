import Simulation
import StageWorld
import SubscriberModel

/// SUB-2..6 on every run: each observer's subscriber callbacks for each stream follow the
/// OpenTok lifecycle (connect before disconnect; after a disconnect exactly one of reconnect
/// or streamDestroyed, never both; never a reconnect without a disconnect; nothing after
/// streamDestroyed; video enabled only after disabled for the same reason; no quality
/// fallback without audio fallback), as `SubscriberEventOrderCheck` defines them. In the
/// world, a streamDestroyed that ends a subscriber object (not one unsubscribed before its
/// stream left) names `networkDisconnected` exactly when it ends an open disconnect (SUB-4:
/// the dropped stream could not be restored; the reason is *(ext)*, the seed's callback
/// carries none), and `clientDisconnected` otherwise.
public struct SubscriberLifecycleMonitor: InvariantMonitor {
    public var name: String { "subscriber-lifecycle-order" }
    public var summary: String { "subscriber callbacks follow the OpenTok lifecycle: never reconnect without disconnect, never both reconnect and destroyed; a stream that cannot be restored is destroyed with networkDisconnected" }
    public var rules: [String] { ["SUB-2", "SUB-3", "SUB-4", "SUB-5", "SUB-6"] }
    private var check = SubscriberEventOrderCheck()

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard case .subscriber(let subscriber) = event.kind else { return [] }
        // One subscriber object's lifecycle: a later subscriber to the same stream (after an
        // unsubscribe, SUB-3) starts its own.
        let subscription = "\(event.observer)/\(subscriber.streamId)" + (subscriber.subscriber > 1 ? "#\(subscriber.subscriber)" : "")
        var violations: [Violation] = []
        if case .streamDestroyed(_, let reason) = subscriber.event, Self.endedSubscriber(subscriber, at: event.observer, world: world) {
            let restoreFailed = check.hasOpenDisconnect(subscription)
            if restoreFailed != (reason == .networkDisconnected) {
                let situation = restoreFailed ? "ends an open subscriberDidDisconnectFromStream (a stream that cannot be restored)" : "ends no open disconnect"
                violations.append(violation(event, index: index, "SUB-4: streamDestroyed(\(reason.rawValue)) \(situation), so its reason is \(restoreFailed ? "networkDisconnected" : "clientDisconnected")"))
            }
        }
        return violations + check.observe(subscription, subscriber.event).map { violation(event, index: index, $0) }
    }

    /// Whether the subscriber object a streamDestroyed names was itself ended by it (SUB-3,
    /// SUB-4), not unsubscribed before its stream left (the session reports that stream).
    private static func endedSubscriber(_ subscriber: SubscriberTraceEvent, at observer: String, world: World) -> Bool {
        guard let client = world.clientIndex(named: observer) else { return false }
        return world.clients[client].subscribers.contains {
            $0.publisherId == subscriber.publisherId && $0.subscriber == subscriber.subscriber
                && $0.state.stream.streamId == subscriber.streamId && $0.state.phase == .streamDestroyed
        }
    }

    public static var keyReads: WorldReads { [] }

    /// Each subscription's lifecycle facts (`SubscriberEventOrderCheck.trackFacts`), keyed by
    /// its observer, stream id (through the renaming) and subscriber number.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.writeUnordered(check.trackFacts) { writer, entry in
            let slash = entry.key.firstIndex(of: "/") ?? entry.key.endIndex
            let stream = entry.key[slash...].dropFirst()
            let hash = stream.firstIndex(of: "#") ?? stream.endIndex
            writer.writeName(String(entry.key[..<slash]))
            writer.writeStreamId(String(stream[..<hash]))
            writer.write(UInt32(stream[hash...].dropFirst()) ?? 1)
            writer.write(UInt32(entry.value.count))
            for byte in entry.value { writer.write(byte) }
        }
    }
}
