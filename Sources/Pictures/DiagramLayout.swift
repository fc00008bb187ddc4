import Simulation

/// Where the parts of a sequence diagram go, in SVG pixels: a column per lifeline, a row per
/// event (virtual time flows down, one row per event however far apart they are, so bursts
/// stay readable and long quiet stretches cost nothing).
struct DiagramLayout {
    static let timeColumnWidth = 100
    /// Room right of the last lifeline for its marks' labels.
    static let rightMargin = 200
    static let columnWidth = 170
    static let rowHeight = 20
    static let top = 16

    let diagram: SequenceDiagram
    private let columns: [String: Int]
    /// The line of each row: a row a monitor flagged is followed by a line for its message.
    private let lines: [Int]

    init(_ diagram: SequenceDiagram) {
        self.diagram = diagram
        var columns: [String: Int] = [:]
        for (index, name) in diagram.lifelines.enumerated() where columns[name] == nil { columns[name] = index }
        self.columns = columns
        var lines: [Int] = []
        var line = 0
        for row in diagram.rows {
            lines.append(line)
            line += row.violated ? 2 : 1
        }
        lines.append(line)
        self.lines = lines
    }

    var width: Int { Self.timeColumnWidth + diagram.lifelines.count * Self.columnWidth + Self.rightMargin }
    /// Rows, then two lines for the violations found at the end of the run.
    var height: Int { y(row: diagram.rows.count) + 2 * Self.rowHeight }

    /// The lifeline's index (its CSS class is `p<index>`); an unknown name gets the service's.
    func column(_ lifeline: String) -> Int { columns[lifeline] ?? 0 }

    func x(_ lifeline: String) -> Int { x(column: column(lifeline)) }

    func x(column: Int) -> Int { Self.timeColumnWidth + column * Self.columnWidth + Self.columnWidth / 2 }

    /// The middle of row `row`'s line (`rows.count`: the line after the last row).
    func y(row: Int) -> Int { Self.top + lines[row] * Self.rowHeight + Self.rowHeight / 2 }

    /// The y of the first row at or after `time` (rows are in time order).
    func y(at time: VirtualTime) -> Int {
        var low = 0
        var high = diagram.rows.count
        while low < high {
            let middle = (low + high) / 2
            if diagram.rows[middle].time < time { low = middle + 1 } else { high = middle }
        }
        return y(row: low) - Self.rowHeight / 2
    }
}
