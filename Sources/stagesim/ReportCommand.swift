import ArgumentParser
import Foundation
import Pictures
import Reporting

/// `stagesim report <kind>`: generate the reports that are checked in under `Reports/`.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Generate reports under Reports/.",
        subcommands: [VisibilityReportCommand.self]
    )
}

/// `stagesim report visibility`: simulate every cell of the metadata visibility matrix.
struct VisibilityReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visibility",
        abstract: "Simulate the token-exchange visibility matrix (VIS-1..4) and write visibility.md, visibility.json and visibility.html.",
        discussion: "Exit status: 0 when every cell equals the seed's table and no invariant broke, 1 otherwise."
    )

    static let seedCount = NumericRange<Int>(1...100_000)

    @Option(parsing: .unconditional, help: "How many seeds to simulate each cell on (seeds 1...N, N in \(VisibilityReportCommand.seedCount)).", transform: VisibilityReportCommand.seedCount.parse)
    var seeds: Int = 50

    @Option(help: "The directory to write visibility.md, .json, .html and the per-cell diagrams under visibility/ to (checked before simulating).")
    var out: String = "Reports"

    func run() throws {
        do {
            try FileOutput.prepareDirectory(out)
        } catch {
            throw ValidationError("--out: \(error)")
        }
        print("seeds: 1...\(seeds)")
        let matrix = VisibilityMatrix.simulate(seeds: (1...UInt64(seeds)).map { $0 }) { history, count in
            print("  simulated \(history.label): \(count) seeds x \(ObserverKind.allCases.count) observers")
        }
        try write(matrix)
        for cell in matrix.cells where !cell.agrees {
            print("DISAGREES: \(cell.history.label) / \(cell.observer.rawValue): expected \(cell.expected.rawValue) \(cell.expectedVia), "
                  + "saw \(cell.outcomes.map { "\($0.outcome) on \($0.seeds.count) seeds" }.joined(separator: ", "))")
        }
        matrix.violations.prefix(10).forEach { print("violation: \($0)") }
        let agreeing = matrix.cells.filter(\.agrees).count
        print("cells matching the seed's table: \(agreeing)/\(matrix.cells.count); invariant violations: \(matrix.violations.count)")
        if !matrix.agrees { throw ExitCode(1) }
    }

    private func write(_ matrix: VisibilityMatrix) throws {
        let markdownPath = (out as NSString).appendingPathComponent("visibility.md")
        let jsonPath = (out as NSString).appendingPathComponent("visibility.json")
        do {
            try FileOutput.writeWhole(VisibilityReport.markdown(matrix), to: markdownPath)
            try FileOutput.writeWhole([UInt8](VisibilityReport.json(matrix)), to: jsonPath)
        } catch {
            throw ValidationError("the report: \(error)")
        }
        print("wrote \(markdownPath) and \(jsonPath)")
        try writePage(matrix)
    }

    /// `visibility.html` and, under `visibility/`, the sequence diagram of each cell's representative seed.
    private func writePage(_ matrix: VisibilityMatrix) throws {
        let pagePath = (out as NSString).appendingPathComponent("visibility.html")
        let folder = (out as NSString).appendingPathComponent(VisibilityPage.diagramFolder)
        do {
            try FileOutput.makeDirectories(folder)
            for cell in matrix.cells {
                let diagram = VisibilityPage.diagram(cell, matrix: matrix)
                try FileOutput.writeWhole(DiagramPage.html(diagram), to: (folder as NSString).appendingPathComponent(VisibilityPage.diagramFile(cell)))
            }
            try FileOutput.writeWhole(VisibilityPage.html(matrix), to: pagePath)
        } catch {
            throw ValidationError("the report page: \(error)")
        }
        print("wrote \(pagePath) and \(matrix.cells.count) cell diagrams under \(folder)")
    }
}
