import Foundation

/// The Trace Event Format's structural rules, as Perfetto's and chrome://tracing's importers
/// need them: the problems of a file, empty when it is well formed.
enum TraceEventRules {
    typealias Event = [String: Any]

    static func problems(_ text: String) -> [String] {
        guard let data = text.data(using: .utf8),
              let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return ["not a JSON object"] }
        guard let events = root["traceEvents"] as? [Event] else { return ["no traceEvents array"] }
        guard root["displayTimeUnit"] as? String == "ms" || root["displayTimeUnit"] as? String == "ns" else { return ["displayTimeUnit is not ms or ns"] }
        var problems = events.enumerated().flatMap { fields(of: $1, index: $0) }
        guard problems.isEmpty else { return problems }
        problems += metadata(events) + slices(events) + flows(events)
        return problems
    }

    /// Every event's required fields for its phase.
    static func fields(of event: Event, index: Int) -> [String] {
        guard let phase = event["ph"] as? String else { return ["event \(index): no ph"] }
        var problems: [String] = []
        if event["pid"] as? Int == nil || event["tid"] as? Int == nil { problems.append("event \(index): pid/tid missing") }
        if event["name"] as? String == nil { problems.append("event \(index): no name") }
        if phase != "M" && (event["ts"] as? Double).map({ $0 >= 0 }) != true { problems.append("event \(index): no ts >= 0") }
        switch phase {
        case "X": if (event["dur"] as? Double).map({ $0 >= 0 }) != true { problems.append("event \(index): X without dur >= 0") }
        case "i", "I": if !["t", "p", "g"].contains(event["s"] as? String ?? "t") { problems.append("event \(index): bad instant scope") }
        case "s", "t", "f": if event["id"] == nil { problems.append("event \(index): flow without id") }
        case "M": if (event["args"] as? Event)?["name"] as? String == nil { problems.append("event \(index): metadata without args.name") }
        case "B", "E": break
        default: problems.append("event \(index): unexpected phase \(phase)")
        }
        return problems
    }

    private static func track(_ event: Event) -> String { "\(event["pid"] as? Int ?? -1)/\(event["tid"] as? Int ?? -1)" }

    /// A process_name for every pid and a thread_name for every pid/tid that carries events.
    static func metadata(_ events: [Event]) -> [String] {
        let named = events.filter { $0["ph"] as? String == "M" }
        let processes = Set(named.filter { $0["name"] as? String == "process_name" }.map { $0["pid"] as? Int ?? -1 })
        let threads = Set(named.filter { $0["name"] as? String == "thread_name" }.map(track))
        var problems: [String] = []
        for event in events where event["ph"] as? String != "M" {
            if !processes.contains(event["pid"] as? Int ?? -1) { problems.append("pid \(event["pid"] ?? "?") has no process_name") }
            if !threads.contains(track(event)) { problems.append("track \(track(event)) has no thread_name") }
        }
        return Array(Set(problems)).sorted()
    }

    /// Per track: B/E balanced and nested with matching names, X slices nested (a slice ends
    /// before its parent does), ts monotone over the track's slice events in file order.
    static func slices(_ events: [Event]) -> [String] {
        var stacks: [String: [(name: String, end: Double?)]] = [:]
        var last: [String: Double] = [:]
        var problems: [String] = []
        for event in events {
            guard let phase = event["ph"] as? String, ["B", "E", "X"].contains(phase), let ts = event["ts"] as? Double else { continue }
            let key = track(event)
            if ts < last[key, default: 0] { problems.append("track \(key): ts goes back at \(ts)") }
            last[key] = ts
            var stack = stacks[key, default: []]
            while let top = stack.last, let end = top.end, end <= ts { _ = stack.popLast() }
            switch phase {
            case "B": stack.append((event["name"] as? String ?? "", nil))
            case "E":
                guard let top = stack.popLast(), top.end == nil else { problems.append("track \(key): E without B at \(ts)"); break }
            case _:
                let end = ts + (event["dur"] as? Double ?? 0)
                if let parent = stack.last?.end, end > parent { problems.append("track \(key): X at \(ts) overlaps its parent's end \(parent)") }
                stack.append((event["name"] as? String ?? "", end))
            }
            stacks[key] = stack
        }
        for (key, stack) in stacks where stack.contains(where: { $0.end == nil }) { problems.append("track \(key): B without E") }
        return problems.sorted()
    }

    /// Flow v1 ids pair an `s` with an `f`; flow v2 `bind_id`s pair one `flow_out` slice with
    /// one `flow_in` slice no earlier than it.
    static func flows(_ events: [Event]) -> [String] {
        var starts: [String: Int] = [:]
        var finishes: [String: Int] = [:]
        var outs: [String: Double] = [:]
        var ins: [String: Double] = [:]
        var problems: [String] = []
        for event in events {
            let ts = event["ts"] as? Double ?? 0
            switch event["ph"] as? String {
            case "s": starts["\(event["id"] ?? "")", default: 0] += 1
            case "f": finishes["\(event["id"] ?? "")", default: 0] += 1
            default: break
            }
            guard let bind = event["bind_id"] as? String else { continue }
            if event["flow_out"] as? Bool == true { if outs.updateValue(ts, forKey: bind) != nil { problems.append("bind_id \(bind): two flow_out") } }
            if event["flow_in"] as? Bool == true { if ins.updateValue(ts, forKey: bind) != nil { problems.append("bind_id \(bind): two flow_in") } }
        }
        if starts != finishes { problems.append("flow s/f ids do not pair") }
        for (bind, out) in outs {
            guard let into = ins[bind] else { problems.append("bind_id \(bind): flow_out without flow_in"); continue }
            if into < out { problems.append("bind_id \(bind): flow ends before it starts") }
        }
        for bind in ins.keys where outs[bind] == nil { problems.append("bind_id \(bind): flow_in without flow_out") }
        return problems.sorted()
    }
}
