import Simulation

/// Where a streamed trace's JSON lines go as the run makes them (`stagesim run --trace`).
public protocol TraceSink: AnyObject, Sendable {
    /// Canonical JSON lines, each ending in `\n`: the lines of one step's events at a time.
    func write(_ line: String)
}

/// A run's events in order, with their canonical JSON-lines form and its XXH3-64 hash.
///
/// Two ways to record, same bytes and same hash:
/// - *kept* (the default): the typed events are kept; their text and hash are rendered only
///   when asked (`jsonLines`, `hash`), so a run nobody reads renders no text at all;
/// - *streamed* (`keepsEvents: false`, or a `sink`): each event's line is rendered once, as
///   the event is appended, into a running hash and the sink; without `keepsEvents` nothing
///   is kept, so memory stays flat however long the run.
public struct Trace: Sendable {
    /// The events, when this trace keeps them; empty otherwise.
    public private(set) var events: [TraceEvent] = []
    /// How many events were appended, kept or not.
    public private(set) var count = 0
    /// Whether `events` holds every event appended.
    public let keepsEvents: Bool
    /// The running hash of the lines, when they are streamed.
    private var streamedHash: XXH3Stream?
    private let sink: (any TraceSink)?
    /// The lines of the events being appended, rendered into one buffer that is kept for the next.
    private var lineBytes: [UInt8] = []

    /// `keepsEvents`: keep the typed events (expectations, timelines and reports read them);
    /// `sink`: hear each event's JSON line as it is appended.
    public init(keepsEvents: Bool = true, sink: (any TraceSink)? = nil) {
        self.keepsEvents = keepsEvents
        self.sink = sink
        self.streamedHash = keepsEvents && sink == nil ? nil : XXH3Stream()
    }

    /// This trace, keeping its events from now on (for a run whose expectations read them).
    public func keepingEvents() -> Trace {
        keepsEvents ? self : Trace(keepsEvents: true, sink: sink)
    }

    public mutating func append(contentsOf newEvents: [TraceEvent]) {
        count += newEvents.count
        if keepsEvents { events += newEvents }
        guard streamedHash != nil, !newEvents.isEmpty else { return }
        lineBytes.removeAll(keepingCapacity: true)
        for event in newEvents { event.appendJSONLine(to: &lineBytes) }
        streamedHash?.update(lineBytes)
        sink?.write(String(decoding: lineBytes, as: UTF8.self))
    }

    /// The trace file: one canonical JSON line per event (kept events only).
    public var jsonLines: String { String(decoding: jsonLineBytes, as: UTF8.self) }

    /// The trace file's bytes (kept events only).
    private var jsonLineBytes: [UInt8] {
        var bytes: [UInt8] = []
        for event in events { event.appendJSONLine(to: &bytes) }
        return bytes
    }

    /// XXH3-64 (seed 0) of the trace file's bytes: `xxhsum -H3 trace.jsonl` prints the same.
    public var hash: UInt64 { streamedHash?.value ?? XXH3.hash64(jsonLineBytes) }
}
