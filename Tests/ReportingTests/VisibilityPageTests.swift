import Testing
@testable import Reporting

@Suite("Visibility report as a page (issue 17)")
struct VisibilityPageTests {
    private let matrix = VisibilityMatrix.simulate(seeds: [1, 2])

    @Test("every cell links to its own diagram file, relative, beside the seed's columns")
    func cellsLink() {
        let page = VisibilityPage.html(matrix)
        #expect(page.components(separatedBy: "<td class=\"cell ").count - 1 == matrix.cells.count)
        let files = Set(matrix.cells.map(VisibilityPage.diagramFile))
        #expect(files.count == matrix.cells.count)
        for file in files { #expect(page.contains("href=\"visibility/\(file)\"")) }
        #expect(page.contains("the seed's table"))
        #expect(page == VisibilityPage.html(matrix))
    }

    @Test("a cell's diagram is its representative seed's run, with no violation")
    func cellDiagram() throws {
        let cell = try #require(matrix.cell(.publishedThenRepublishes, .web))
        let diagram = VisibilityPage.diagram(cell, matrix: matrix)
        #expect(diagram.lifelines.first == "server" && diagram.lifelines.contains(VisibilityExperiment.subject))
        #expect(diagram.violations.isEmpty)
        #expect(diagram.rows.contains { $0.isArrow })
    }
}
