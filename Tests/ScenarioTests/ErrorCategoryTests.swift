import Drivers
@testable import Scenario
import StageCore
import StageWorld
import Testing

/// Every error a bundled scenario produces is filed under the operation that failed: an
/// exchange refusal is not a join error, and neither is an ejection.
@Suite("Stage error categories")
struct ErrorCategoryTests {
    /// The categories of every error `observer` saw, on renderer events and in error reports.
    func categories(_ file: String, observer: String) throws -> Set<StageErrorCategory> {
        let run = ScenarioRunner.run(try ScenarioLoader.load(path: packageRoot + "/Scenarios/" + file))
        return Set(run.trace.events.filter { $0.observer == observer }.compactMap { event -> StageError? in
            switch event.kind {
            case .renderer(let renderer): renderer.error
            case .sdkError(let report): report.error
            default: nil
            }
        }.map(\.category))
    }

    @Test("a refused join is a join error")
    func join() throws {
        #expect(try categories("stg-2-token-errors.yaml", observer: "late") == [.join])
        #expect(try categories("stg-2-token-errors.yaml", observer: "lost") == [.join])
    }

    @Test("a publish refused at capacity is a publish error")
    func publish() throws {
        #expect(try categories("stg-4-str-5-capacity-retry-on-refresh.yaml", observer: "p13") == [.publish])
    }

    @Test("exchange refusals, by the SDK at once and by the service, are exchangeToken errors")
    func exchangeToken() throws {
        #expect(try categories("tok-4-immutable-fields-and-origin.yaml", observer: "host") == [.exchangeToken])
        #expect(try categories("tok-4-immutable-fields-and-origin.yaml", observer: "serviced") == [.exchangeToken])
    }

    @Test("an ejection is a connection error, on the renderer and the error delegate alike")
    func ejection() throws {
        #expect(try categories("tok-10-token-reuse.yaml", observer: "laptop") == [.connection])
    }

    @Test("the operation an error report names is its category")
    func operationIsCategory() {
        for category in StageErrorCategory.allCases {
            let report = SDKErrorReport(error: StageError(code: .failed, category: category, isFatal: false), reason: "r")
            #expect(report.operation == category.rawValue)
            #expect(report.summary.hasPrefix("\(category.rawValue) failed: FAILED(4, \(category.rawValue))"))
        }
    }
}
