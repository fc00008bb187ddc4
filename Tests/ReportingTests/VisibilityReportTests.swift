import Testing
@testable import Reporting

@Suite("Visibility matrix report (VIS)")
struct VisibilityReportTests {
    @Test("a few seeds reproduce the seed's table in every cell, with no invariant broken")
    func matrixMatchesSeed() {
        let matrix = VisibilityMatrix.simulate(seeds: [1, 2, 3, 4])
        #expect(matrix.cells.count == ParticipantHistory.allCases.count * ObserverKind.allCases.count)
        #expect(matrix.violations.isEmpty)
        for cell in matrix.cells {
            #expect(cell.agrees, "\(cell.history) / \(cell.observer): \(cell.outcomes.map(\.outcome))")
        }
    }
}

@Suite("Visibility cells")
struct VisibilityCellTests {
    private func cell(_ outcomes: [(String, [UInt64])], observed: Visibility?) -> VisibilityCell {
        VisibilityCell(
            history: .publishedNoRepublish, observer: .web, expected: .notVisible, expectedVia: "never", observed: observed,
            outcomes: outcomes.map { VisibilityCell.OutcomeCount(outcome: $0.0, seeds: $0.1) },
            delayMillisecondsMin: nil, delayMillisecondsMax: nil, seeds: outcomes.reduce(0) { $0 + $1.1.count }
        )
    }

    @Test("a cell agrees only when every seed showed the expected outcome")
    func agreement() {
        #expect(cell([("never", [1, 2])], observed: .notVisible).agrees)
        #expect(!cell([("never", [1]), ("participantMetadataDidUpdate", [2])], observed: nil).agrees)
        #expect(!cell([("participantMetadataDidUpdate", [1, 2])], observed: .visible).agrees)
    }

    @Test("the seed's table, every cell: only mobile >= 1.37.0 sees an update of a participant that keeps publishing")
    func seedTable() {
        let seed: [ParticipantHistory: [ObserverKind: Visibility]] = [
            .notPublishingThenPublishes: [.mobile137: .visible, .mobile136: .visible, .web: .visible, .composition: .visible],
            .publishedNoRepublish: [.mobile137: .visible, .mobile136: .notVisible, .web: .notVisible, .composition: .notVisible],
            .publishedThenRepublishes: [.mobile137: .visible, .mobile136: .conditional, .web: .conditional, .composition: .conditional],
        ]
        for history in ParticipantHistory.allCases {
            for observer in ObserverKind.allCases {
                #expect(SeedVisibilityTable.expected(history, observer).0 == seed[history]?[observer], "\(history) / \(observer)")
            }
        }
    }

    @Test("the Markdown and JSON of equal matrices are byte-identical")
    func reportIsDeterministic() throws {
        let first = VisibilityMatrix.simulate(seeds: [7])
        let second = VisibilityMatrix.simulate(seeds: [7])
        #expect(VisibilityReport.markdown(first) == VisibilityReport.markdown(second))
        #expect(try VisibilityReport.json(first) == VisibilityReport.json(second))
        #expect(VisibilityReport.markdown(first).contains("equals the seed's table in every cell"))
    }
}
