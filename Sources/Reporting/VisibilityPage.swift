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
        out += table(matrix)
        out += "<p>Invariant violations over all runs: \(matrix.violations.count).</p>"
        out += "<script>document.body.setAttribute(\"data-render-ms\",performance.now().toFixed(1));</script></body></html>\n"
        return out
    }

    /// One table, a row per history: the simulated cells (each linking to its diagram), then,
    /// beside them, the seed's two columns, so each row reads across.
    private static func table(_ matrix: VisibilityMatrix) -> String {
        var out = "<table class=\"matrix\"><tr><th rowspan=\"2\">participant state</th><th colspan=\"\(ObserverKind.allCases.count)\">simulated (a cell links to one seed's sequence diagram)</th>"
        out += "<th colspan=\"2\" class=\"seed\">the seed's table (ivs-token-exchange.it.txt)</th></tr><tr>"
        out += ObserverKind.allCases.map { "<th>\(HTMLText.escape($0.rawValue))</th>" }.joined()
        out += "<th class=\"seed\">mobile &gt;= 1.37.0</th><th class=\"seed\">older mobile, web, composition</th></tr>"
        for history in ParticipantHistory.allCases {
            out += "<tr><th>\(HTMLText.escape(history.label))</th>"
            out += ObserverKind.allCases.map { observer in matrix.cell(history, observer).map { cellHTML($0, matrix: matrix) } ?? "<td>-</td>" }.joined()
            for column in [ObserverKind.mobile137, .web] {
                let (verdict, via) = SeedVisibilityTable.expected(history, column)
                out += "<td class=\"seed \(word(verdict).replacingOccurrences(of: " ", with: "-"))\">\(verdict.rawValue) \(word(verdict))<br>\(HTMLText.escape(via))</td>"
            }
            out += "</tr>"
        }
        return out + "</table>"
    }

    private static func cellHTML(_ cell: VisibilityCell, matrix: VisibilityMatrix) -> String {
        let via = cell.outcomes.count == 1 ? cell.outcomes[0].outcome : "mixed"
        let link = "\(diagramFolder)/\(diagramFile(cell))"
        let verdict = cell.observed.map { "\($0.rawValue) \(word($0))" } ?? "? mixed"
        var out = "<td class=\"cell \(cell.agrees ? "agrees" : "disagrees") \(cell.observed.map { word($0).replacingOccurrences(of: " ", with: "-") } ?? "mixed")\""
        out += " data-history=\"\(cell.history.rawValue)\" data-observer=\"\(cell.observer.clientName)\">"
        out += "<a href=\"\(HTMLText.escape(link))\">\(verdict)<br>\(HTMLText.escape(via))</a>"
        return out + "<small>seed \(representativeSeed(cell, matrix: matrix))\(cell.agrees ? ", as the seed says" : " DISAGREES with the seed")</small></td>"
    }

    /// The verdict in words (the symbols alone need an emoji font).
    private static func word(_ visibility: Visibility) -> String {
        switch visibility {
        case .visible: "visible"
        case .notVisible: "not visible"
        case .conditional: "conditional"
        }
    }

    private static let style = """
        body{font:14px system-ui,sans-serif;margin:16px;color:#222}.visible{background:#e6f4e6}.not-visible{background:#f1f1f1}.conditional{background:#fff3d6}
        td.seed,th.seed{border-left:3px double #888}td.seed+td.seed,th.seed+th.seed{border-left:1px solid #ccc}td{max-width:190px;overflow-wrap:anywhere}
        table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:6px 8px;text-align:left;vertical-align:top}
        th{background:#f4f4f4}td small{display:block;color:#777}td.disagrees{background:#fde8e8}
        .verdict.ok{color:#176b2c;font-weight:bold}.verdict.broken{color:#b00;font-weight:bold}a{color:#1f5fa8}
        """
}
