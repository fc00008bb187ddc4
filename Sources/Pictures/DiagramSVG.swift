/// The SVG of a sequence diagram: bands, lifelines, a row per event, violation marks. Every
/// element tests and the page's script select carries a stable class or data attribute:
/// `g.lifeline[data-participant]`, `g.arrow.delivered[data-type]`, `g.arrow.lost`,
/// `g.mark[data-family]`, `g.band`, `g.violation`.
struct DiagramSVG {
    let layout: DiagramLayout
    private var diagram: SequenceDiagram { layout.diagram }

    /// The lifeline names, kept in view above the scrolling diagram.
    func header() -> String {
        var out = "<svg class=\"names\" width=\"\(layout.width)\" height=\"24\" viewBox=\"0 0 \(layout.width) 24\">"
        for (index, name) in diagram.lifelines.enumerated() {
            out += "<text class=\"lifeline-name p\(index)\" x=\"\(layout.x(column: index))\" y=\"16\">\(HTMLText.escape(name))</text>"
        }
        return out + "</svg>"
    }

    func body() -> String {
        var out = "<svg class=\"diagram\" width=\"\(layout.width)\" height=\"\(layout.height)\" viewBox=\"0 0 \(layout.width) \(layout.height)\">"
        out += "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0 0L10 5L0 10z\"/></marker></defs>"
        diagram.bands.forEach { out += band($0) }
        for (index, name) in diagram.lifelines.enumerated() {
            let x = layout.x(column: index)
            out += "<g class=\"lifeline p\(index)\" data-participant=\"\(HTMLText.escape(name))\"><line x1=\"\(x)\" y1=\"0\" x2=\"\(x)\" y2=\"\(layout.height)\"/></g>"
        }
        for (index, row) in diagram.rows.enumerated() { out += self.row(row, at: layout.y(row: index)) }
        for violation in diagram.violations { out += mark(violation) }
        return out + "</svg>"
    }

    private func band(_ band: SequenceDiagram.Band) -> String {
        let top = layout.y(at: band.start)
        let height = max(layout.y(at: band.end) - top, DiagramLayout.rowHeight / 2)
        let (kind, left, right, column) = band.client.map { client in
            ("partition", layout.x(column: 0), layout.x(client) + DiagramLayout.columnWidth / 2, layout.column(client))
        } ?? ("outage", DiagramLayout.timeColumnWidth, layout.width, 0)
        return "<g class=\"band \(kind) p\(column)\"><title>\(HTMLText.escape(band.label))</title>"
            + "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(right - left)\" height=\"\(height)\"/></g>"
    }

    private func row(_ row: SequenceDiagram.Row, at y: Int) -> String {
        let action = row.actionNumber.map { "#\($0) " } ?? ""
        let time = "<text class=\"time\" x=\"4\" y=\"\(y + 4)\">\(action)\(row.time)</text>"
        return time + (row.isArrow ? arrow(row, at: y) : mark(row, at: y))
    }

    private func arrow(_ row: SequenceDiagram.Row, at y: Int) -> String {
        let sender = row.sender ?? SequenceDiagram.service
        let (from, to) = (layout.x(sender), layout.x(row.lifeline))
        let classes = row.family == .lost ? "arrow lost" : "arrow delivered"
        let flag = row.violated ? " flagged" : ""
        let direction = to >= from ? 1 : -1
        let labelX = (from + to) / 2
        var out = "<g class=\"\(classes) \(row.family.rawValue) p\(layout.column(sender)) p\(layout.column(row.lifeline))\(flag)\""
        out += " data-type=\"\(HTMLText.escape(row.label))\" data-from=\"\(HTMLText.escape(sender))\" data-to=\"\(HTMLText.escape(row.lifeline))\" data-event=\"\(row.eventIndex)\">"
        out += "<title>\(HTMLText.escape(row.detail))</title>"
        if row.family == .lost {
            let end = to - direction * 30
            out += "<line x1=\"\(from)\" y1=\"\(y)\" x2=\"\(end)\" y2=\"\(y)\"/>"
            out += "<path class=\"x\" d=\"M\(end - 5) \(y - 5)l10 10m0 -10l-10 10\"/>"
        } else {
            out += "<line x1=\"\(from)\" y1=\"\(y)\" x2=\"\(to - direction * 2)\" y2=\"\(y)\" marker-end=\"url(#head)\"/>"
        }
        return out + "<text x=\"\(labelX)\" y=\"\(y - 3)\">\(HTMLText.escape(row.label))</text></g>"
    }

    private func mark(_ row: SequenceDiagram.Row, at y: Int) -> String {
        let x = layout.x(row.lifeline)
        let flag = row.violated ? " flagged" : ""
        return "<g class=\"mark \(row.family.rawValue) p\(layout.column(row.lifeline))\(flag)\" data-family=\"\(row.family.rawValue)\" data-event=\"\(row.eventIndex)\">"
            + "<title>\(HTMLText.escape(row.detail))</title><circle cx=\"\(x)\" cy=\"\(y)\" r=\"4\"/>"
            + "<text x=\"\(x + 8)\" y=\"\(y + 4)\">\(HTMLText.escape(row.label))</text></g>"
    }

    /// A violation: a red band across the row of the event it flagged (or below the last row
    /// for an end-of-run check), with the monitor's message on the line below.
    private func mark(_ violation: SequenceDiagram.ViolationMark) -> String {
        let rowIndex = violation.eventIndex.flatMap { index in diagram.rows.firstIndex { $0.eventIndex == index } } ?? diagram.rows.count
        let y = layout.y(row: rowIndex)
        let action = violation.actionNumber.map { " (action #\($0))" } ?? ""
        let text = "\(violation.invariant) [\(violation.rules.joined(separator: ", "))]\(action): \(violation.message)"
        return "<g class=\"violation\" id=\"violation-\(rowIndex)\" data-invariant=\"\(HTMLText.escape(violation.invariant))\"><title>\(HTMLText.escape(text))</title>"
            + "<rect x=\"0\" y=\"\(y - DiagramLayout.rowHeight / 2)\" width=\"\(layout.width)\" height=\"\(DiagramLayout.rowHeight)\"/>"
            + "<text x=\"\(layout.x(violation.lifeline) + 8)\" y=\"\(y + DiagramLayout.rowHeight + 4)\">!! \(HTMLText.escape(text))</text></g>"
    }
}
