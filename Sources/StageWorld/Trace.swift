import Simulation

/// A run's events in order, with their canonical JSON-lines form and its XXH3-64 hash.
public struct Trace: Sendable {
    public private(set) var events: [TraceEvent] = []

    public init() {}

    public mutating func append(contentsOf newEvents: [TraceEvent]) { events += newEvents }

    /// The trace file: one canonical JSON line per event.
    public var jsonLines: String { events.map(\.jsonLine).joined() }

    /// XXH3-64 (seed 0) of the trace file's bytes: `xxhsum -H3 trace.jsonl` prints the same.
    public var hash: UInt64 { XXH3.hash64(Array(jsonLines.utf8)) }
}
