import Simulation
import StageWorld
import SubscriberModel

/// SUB-2..6 on every run: each observer's subscriber callbacks for each stream follow the
/// OpenTok lifecycle (connect before disconnect; after a disconnect exactly one of reconnect
/// or streamDestroyed, never both; never a reconnect without a disconnect; nothing after
/// streamDestroyed; video enabled only after disabled for the same reason; no quality
/// fallback without audio fallback), as `SubscriberEventOrderCheck` defines them.
public struct SubscriberLifecycleMonitor: InvariantMonitor {
    public var name: String { "subscriber-lifecycle-order" }
    public var summary: String { "subscriber callbacks follow the OpenTok lifecycle: never reconnect without disconnect, never both reconnect and destroyed" }
    public var rules: [String] { ["SUB-2", "SUB-3", "SUB-4", "SUB-5", "SUB-6"] }
    private var check = SubscriberEventOrderCheck()

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard case .subscriber(let subscriber) = event.kind else { return [] }
        // One subscriber object's lifecycle: a later subscriber to the same stream (after an
        // unsubscribe, SUB-3) starts its own.
        let subscription = "\(event.observer)/\(subscriber.streamId)" + (subscriber.subscriber > 1 ? "#\(subscriber.subscriber)" : "")
        return check.observe(subscription, subscriber.event).map { violation(event, index: index, $0) }
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
