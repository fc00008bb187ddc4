import Checking
import Simulation
import StageCore
import StageWorld

/// A run in the Trace Event Format that Perfetto and `chrome://tracing` open (issue 17): a
/// process per participant (the stage service is pid 1, client `i` is pid `i + 2`) whose
/// threads are its tracks: `frames` (frame slices, renderer and other callbacks as instants),
/// `connection` (a slice per connection state) and one per publish or subscribe state it
/// reports. Each delivered frame is a slice on the sender's and on the receiver's `frames`
/// track tied by a flow (`bind_id`, `flow_out`/`flow_in`). Timestamps are microseconds of
/// virtual time. The trace records when a frame arrived, not when it left, so a flow starts
/// and ends at its delivery time.
public struct TraceEventsFile {
    /// One track: a process and a thread, with their names.
    struct Track: Hashable {
        var pid: Int
        var tid: Int
    }

    /// A state slice not yet closed: its name and start.
    struct OpenSlice {
        var name: String
        var start: VirtualTime
    }

    private let lifelines: [String]
    private var events: [String] = []
    private var threadNames: [(Track, String)] = []
    private var keyedTracks: [String: Track] = [:]
    private var nextTid: [Int: Int] = [:]
    private var open: [(Track, OpenSlice)] = []

    /// The file for a run's trace, the clients of its world and the violations its monitors found.
    public static func json(trace: Trace, config: WorldConfig, violations: [Violation]) -> String {
        var file = TraceEventsFile(lifelines: [SequenceDiagram.service] + config.clients.map(\.name))
        for (index, event) in trace.events.enumerated() { file.add(event, index: index) }
        for violation in violations { file.add(violation) }
        file.closeSlices(at: trace.events.last?.time ?? .zero)
        return file.text()
    }

    private init(lifelines: [String]) {
        self.lifelines = lifelines
        for name in lifelines { _ = track(name, "frames") }
    }

    private mutating func add(_ event: TraceEvent, index: Int) {
        let frames = track(event.observer, "frames")
        switch event.kind {
        case .delivered(let message, let frame):
            let type = SequenceDiagram.messageType(message.summary)
            let sender = track(event.peer ?? SequenceDiagram.service, "frames")
            let args = "{\"frame\":\(TraceText.json(TraceText.frame(frame)))}"
            events.append(slice(sender, "send \(type)", event.time, category: "frame", args: args, flow: "\"bind_id\":\"\(index)\",\"flow_out\":true"))
            events.append(slice(frames, type, event.time, category: "frame", args: args, flow: "\"bind_id\":\"\(index)\",\"flow_in\":true"))
        case .lost(let frame):
            let sender = track(event.peer ?? SequenceDiagram.service, "frames")
            events.append(instant(sender, "lost \(SequenceDiagram.frameType(frame))", event.time, category: "lost", detail: TraceText.frame(frame)))
        case .renderer(let renderer):
            events.append(instant(frames, renderer.name, event.time, category: "renderer", detail: event.detail))
            addState(of: renderer, observer: event.observer, at: event.time)
        default:
            guard let row = SequenceDiagram.row(for: event, index: index) else { return }
            events.append(instant(frames, row.label, event.time, category: row.family.rawValue, detail: event.detail))
        }
    }

    /// A connection, publish or subscribe state change ends the track's open slice and opens the next.
    private mutating func addState(of event: RendererEvent, observer: String, at time: VirtualTime) {
        guard let state = event.stateName else { return }
        let name: String
        switch event {
        case .connectionStateChanged: name = "connection"
        case .publishStateChanged(let info, _, _): name = "publish \(info.participantId)"
        case .subscribeStateChanged(let info, _, _): name = "subscribe \(info.participantId)"
        default: return
        }
        let stateTrack = track(observer, name)
        if let index = open.firstIndex(where: { $0.0 == stateTrack }) {
            events.append(stateSlice(stateTrack, open[index].1, end: time))
            open[index].1 = OpenSlice(name: state, start: time)
        } else {
            open.append((stateTrack, OpenSlice(name: state, start: time)))
        }
    }

    private mutating func add(_ violation: Violation) {
        let detail = "\(violation.invariant) [\(violation.rules.joined(separator: ", "))]: \(violation.message)"
        events.append(instant(track(violation.observer, "frames"), "VIOLATION \(violation.invariant)", violation.time, category: "violation", detail: detail))
    }

    private mutating func closeSlices(at end: VirtualTime) {
        for (stateTrack, slice) in open { events.append(stateSlice(stateTrack, slice, end: max(end, slice.start))) }
        open = []
    }

    /// The track of `name` on `participant`'s process, made (with its thread name) when first used.
    private mutating func track(_ participant: String, _ name: String) -> Track {
        let key = participant + "\u{0}" + name
        if let known = keyedTracks[key] { return known }
        let pid = (lifelines.firstIndex(of: participant) ?? 0) + 1
        let tid = nextTid[pid, default: 1]
        nextTid[pid] = tid + 1
        let made = Track(pid: pid, tid: tid)
        keyedTracks[key] = made
        threadNames.append((made, name))
        return made
    }

    private func stateSlice(_ track: Track, _ slice: OpenSlice, end: VirtualTime) -> String {
        self.slice(track, slice.name, slice.start, duration: end - slice.start, category: "state", args: "{}", flow: nil)
    }

    private func slice(_ track: Track, _ name: String, _ time: VirtualTime, duration: VirtualDuration = .zero, category: String, args: String, flow: String?) -> String {
        "{\"ph\":\"X\",\"name\":\(TraceText.json(name)),\"cat\":\"\(category)\",\"pid\":\(track.pid),\"tid\":\(track.tid),"
            + "\"ts\":\(Self.microseconds(time.nanoseconds)),\"dur\":\(Self.microseconds(duration.nanoseconds)),\"args\":\(args)\(flow.map { "," + $0 } ?? "")}"
    }

    private func instant(_ track: Track, _ name: String, _ time: VirtualTime, category: String, detail: String) -> String {
        "{\"ph\":\"i\",\"s\":\"t\",\"name\":\(TraceText.json(name)),\"cat\":\"\(category)\",\"pid\":\(track.pid),\"tid\":\(track.tid),"
            + "\"ts\":\(Self.microseconds(time.nanoseconds)),\"args\":{\"detail\":\(TraceText.json(detail))}}"
    }

    /// The metadata events: a name for every process and thread used, first in the file.
    private func metadata() -> [String] {
        let processes = lifelines.enumerated().map { index, name in
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":\(index + 1),\"tid\":0,\"args\":{\"name\":\(TraceText.json(name))}}"
        }
        let threads = threadNames.map { track, name in
            "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":\(track.pid),\"tid\":\(track.tid),\"args\":{\"name\":\(TraceText.json(name))}}"
        }
        return processes + threads
    }

    private func text() -> String {
        "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + (metadata() + events).joined(separator: ",\n") + "\n]}\n"
    }

    /// Nanoseconds as microseconds with three decimals: `1234567` -> `1234.567`.
    static func microseconds(_ nanoseconds: UInt64) -> String {
        let fraction = String(nanoseconds % 1_000)
        return "\(nanoseconds / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
