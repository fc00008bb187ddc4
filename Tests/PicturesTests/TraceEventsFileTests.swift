import Foundation
import Testing
@testable import Pictures

@Suite("Trace Event Format export (issue 17)")
struct TraceEventsFileTests {
    private let text = TraceEventsFile.json(trace: SmallRun.trace, config: SmallRun.config, violations: SmallRun.violations)

    @Test("the file keeps the format's rules")
    func wellFormed() {
        #expect(TraceEventRules.problems(text) == [])
    }

    @Test("a track per participant, a flow per delivered frame, instants for renderer callbacks, state slices")
    func content() throws {
        let root = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        let processNames = events.filter { $0["name"] as? String == "process_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(processNames == ["server", SmallRun.hostile, "alice"])
        #expect(events.filter { $0["flow_out"] as? Bool == true }.count == SmallRun.deliveredCount)
        #expect(events.filter { $0["flow_in"] as? Bool == true }.count == SmallRun.deliveredCount)
        #expect(events.filter { $0["ph"] as? String == "i" && $0["cat"] as? String == "renderer" }.count == 3)
        let connection = events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "state" }.compactMap { $0["name"] as? String }
        #expect(connection.contains("connecting") && connection.contains("connected") && connection.contains("published"))
        #expect(events.contains { ($0["name"] as? String)?.hasPrefix("VIOLATION") == true })
    }

    @Test("microseconds of virtual time, deterministic bytes")
    func timestamps() {
        #expect(TraceEventsFile.microseconds(1_234_567) == "1234.567")
        #expect(TraceEventsFile.microseconds(5) == "0.005")
        #expect(text == TraceEventsFile.json(trace: SmallRun.trace, config: SmallRun.config, violations: SmallRun.violations))
    }

    @Test("the rules catch broken files: missing metadata, unbalanced B/E, overlapping X, unpaired flows")
    func rulesCatchBreakage() {
        let meta = #"{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"p"}},{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"t"}}"#
        func file(_ body: String) -> String { #"{"displayTimeUnit":"ms","traceEvents":["# + body + "]}" }
        #expect(!TraceEventRules.problems(file(#"{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":1}"#)).isEmpty)
        #expect(!TraceEventRules.problems(file(meta + #",{"ph":"B","name":"a","pid":1,"tid":1,"ts":0}"#)).isEmpty)
        #expect(!TraceEventRules.problems(file(meta + #",{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":5},{"ph":"X","name":"b","pid":1,"tid":1,"ts":3,"dur":5}"#)).isEmpty)
        #expect(!TraceEventRules.problems(file(meta + #",{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":-1}"#)).isEmpty)
        #expect(!TraceEventRules.problems(file(meta + #",{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":1,"bind_id":"7","flow_out":true}"#)).isEmpty)
        #expect(!TraceEventRules.problems(file(meta + #",{"ph":"s","name":"a","pid":1,"tid":1,"ts":0,"id":1}"#)).isEmpty)
        #expect(TraceEventRules.problems(file(meta + #",{"ph":"B","name":"a","pid":1,"tid":1,"ts":0},{"ph":"E","name":"a","pid":1,"tid":1,"ts":2}"#)).isEmpty)
    }
}
