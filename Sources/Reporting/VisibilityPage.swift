import Pictures
import Simulation
import StageWorld

/// The visibility report as a page (issue 17): the simulated matrix beside the seed's table,
/// each simulated cell linking to the sequence diagram of one representative seed for it
/// (`visibility/<cell>.html`, written beside the page). Same matrix, same bytes.
public enum VisibilityPage {
    /// The folder, relative to the page, that holds the per-cell diagrams.
    public static let diagramFolder = "visibility"

    /// The diagram's file name of a cell, e.g. `publishedNoRepublish-obs-web.html`.
    public static func diagramFile(_ cell: VisibilityCell) -> String {
        "\(cell.history.rawValue)-\(cell.observer.clientName).html"
    }

    /// The seed a cell's diagram shows: the first seed of its first outcome.
    public static func representativeSeed(_ cell: VisibilityCell, matrix: VisibilityMatrix) -> UInt64 {
        cell.outcomes.first?.seeds.first ?? matrix.seeds.first ?? 1
    }

    /// The sequence diagram of a cell's representative run.
    public static func diagram(_ cell: VisibilityCell, matrix: VisibilityMatrix) -> SequenceDiagram {
        let seed = representativeSeed(cell, matrix: matrix)
        let run = VisibilityExperiment(history: cell.history, seed: seed).monitoredRun()
        return SequenceDiagram(
            title: "visibility: \(cell.history.label) / \(cell.observer.rawValue) (seed \(seed))", trace: run.trace,
            config: run.finalWorld.config, violations: run.violations,
            notes: ["observer \(cell.observer.clientName) watches \(VisibilityExperiment.subject); expected \(cell.expected.rawValue) \(cell.expectedVia); "
                    + "this seed: \(cell.outcomes.first { $0.seeds.contains(seed) }?.outcome ?? "-")",
                    "trace hash \(XXH3.hex(run.trace.hash)), \(run.trace.events.count) events; back: ../visibility.html"]
        )
    }

    public static func html(_ matrix: VisibilityMatrix) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Metadata visibility matrix (VIS-1..4)</title><style>\(style)</style></head>\n<body>"
        out += "<h1>Metadata visibility matrix (VIS-1..4)</h1><p>Simulated on seeds \(matrix.seeds.first ?? 0)..\(matrix.seeds.last ?? 0) per cell "
        out += "(lossy, jittery network; observers reconnect at random). Each simulated cell links to the sequence diagram of one of its seeds.</p>"
        out += "<p class=\"verdict \(matrix.agrees ? "ok" : "broken")\">" + (matrix.agrees ? "The simulated matrix equals the seed's table in every cell." : "The simulated matrix DISAGREES with the seed's table.") + "</p>"
        out += "<div class=\"side\"><section><h2>Simulated</h2>\(simulated(matrix))</section><section><h2>The seed's table</h2>\(seedTable)</section></div>"
        out += "<p>Invariant violations over all runs: \(matrix.violations.count).</p>"
        out += "<script>document.body.setAttribute(\"data-render-ms\",performance.now().toFixed(1));</script></body></html>\n"
        return out
    }

    private static func simulated(_ matrix: VisibilityMatrix) -> String {
        var out = "<table class=\"matrix\"><tr><th>participant state</th>" + ObserverKind.allCases.map { "<th>\(HTMLText.escape($0.rawValue))</th>" }.joined() + "</tr>"
        for history in ParticipantHistory.allCases {
            out += "<tr><th>\(HTMLText.escape(history.label))</th>"
            for observer in ObserverKind.allCases {
                guard let cell = matrix.cell(history, observer) else { out += "<td>-</td>"; continue }
                let via = cell.outcomes.count == 1 ? cell.outcomes[0].outcome : "mixed"
                let link = "\(diagramFolder)/\(diagramFile(cell))"
                out += "<td class=\"cell \(cell.agrees ? "agrees" : "disagrees")\" data-history=\"\(history.rawValue)\" data-observer=\"\(observer.clientName)\">"
                out += "<a href=\"\(HTMLText.escape(link))\">\(cell.observed?.rawValue ?? "?") \(HTMLText.escape(via))</a>"
                out += "<small>seed \(representativeSeed(cell, matrix: matrix))\(cell.agrees ? "" : " DISAGREES")</small></td>"
            }
            out += "</tr>"
        }
        return out + "</table>"
    }

    private static var seedTable: String {
        var out = "<table class=\"seed\"><tr><th>participant state</th><th>mobile &gt;= 1.37.0</th><th>older mobile, web, composition</th></tr>"
        for history in ParticipantHistory.allCases {
            let newer = SeedVisibilityTable.expected(history, .mobile137)
            let older = SeedVisibilityTable.expected(history, .web)
            out += "<tr><th>\(HTMLText.escape(history.label))</th><td>\(newer.0.rawValue) \(HTMLText.escape(newer.via))</td><td>\(older.0.rawValue) \(HTMLText.escape(older.via))</td></tr>"
        }
        return out + "</table>"
    }

    private static let style = """
        body{font:14px system-ui,sans-serif;margin:16px;color:#222}.side{display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start}
        table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:6px 8px;text-align:left;vertical-align:top}
        th{background:#f4f4f4}td small{display:block;color:#777}td.disagrees{background:#fde8e8}
        .verdict.ok{color:#176b2c;font-weight:bold}.verdict.broken{color:#b00;font-weight:bold}a{color:#1f5fa8}
        """
}
