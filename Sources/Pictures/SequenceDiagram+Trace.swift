import Checking
import Simulation
import StageWorld

extension SequenceDiagram {
    /// The diagram of a run: every frame delivered or lost becomes an arrow, renderer,
    /// subscriber, strategy, host, service and error events become marks, the fault plan's
    /// partitions become bands. `actionNumbers[i]` is the 1-based action of a counterexample
    /// that produced trace event `i` (empty for a timed run).
    public init(
        title: String, trace: Trace, config: WorldConfig, violations: [Violation],
        actionNumbers: [Int] = [], notes: [String] = []
    ) {
        let flagged = Set(violations.compactMap(\.eventIndex))
        var rows: [Row] = []
        for (index, event) in trace.events.enumerated() {
            guard var row = Self.row(for: event, index: index) else { continue }
            row.actionNumber = index < actionNumbers.count ? actionNumbers[index] : nil
            row.violated = flagged.contains(index)
            rows.append(row)
        }
        let marks = violations.map { violation in
            ViolationMark(
                invariant: violation.invariant, rules: violation.rules, message: violation.message,
                lifeline: violation.observer, time: violation.time, eventIndex: violation.eventIndex,
                actionNumber: violation.eventIndex.flatMap { $0 < actionNumbers.count ? actionNumbers[$0] : nil }
            )
        }
        self.init(
            title: title, lifelines: [Self.service] + config.clients.map(\.name), rows: rows,
            bands: config.faults.partitions.map(Self.band), violations: marks, notes: notes
        )
    }

    /// The row an event draws, or nil for the transport's bookkeeping (duplicates, frames held
    /// for order, frames of closed connections) and timers, which the text trace still shows.
    static func row(for event: TraceEvent, index: Int) -> Row? {
        func mark(_ family: Family, _ label: String) -> Row {
            Row(time: event.time, eventIndex: index, family: family, lifeline: event.observer, label: label, detail: event.detail, violated: false)
        }
        switch event.kind {
        case .delivered(let message, let frame):
            var row = mark(.frame, messageType(message.summary))
            (row.sender, row.detail) = (event.peer ?? "?", TraceText.frame(frame))
            return row
        case .lost(let frame):
            var row = mark(.lost, frameType(frame))
            (row.sender, row.detail) = (event.peer ?? "?", TraceText.frame(frame))
            return row
        case .hostCall(let call): return mark(.host, messageType(call.summary))
        case .renderer(let renderer): return mark(.renderer, renderer.name + (renderer.stateName.map { " " + $0 } ?? ""))
        case .subscriber(let subscriber): return mark(.subscriber, subscriber.event.name)
        case .strategyQueried: return mark(.strategy, "strategy")
        case .service(let service): return mark(.service, messageType(service.summary))
        case .sdkError, .protocolError: return mark(.error, event.category)
        case .layout: return mark(.other, "layout")
        case .timerFired, .duplicate, .heldForOrder, .discarded: return nil
        }
    }

    /// The leading name of a one-line summary: `joinAccepted[...]` -> `joinAccepted`.
    static func messageType(_ summary: String) -> String {
        String(summary.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
    }

    /// The `"type"` field of a frame's JSON, or `frame` when it has none.
    static func frameType(_ frame: String) -> String {
        guard let key = frame.range(of: "\"type\":\"") else { return "frame" }
        let name = frame[key.upperBound...].prefix { $0 != "\"" }
        return name.isEmpty ? "frame" : String(name)
    }

    static func band(_ partition: Partition) -> Band {
        Band(client: partition.clientName, start: partition.start, end: partition.end, label: partition.summary)
    }
}
