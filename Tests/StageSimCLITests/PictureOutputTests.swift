import Foundation
import Testing

/// `run --html` and `--trace-events` as separate processes (issue 17): identical bytes from two
/// processes, and as many delivered-frame arrows as the trace file has delivered frames.
@Suite("stagesim run --html and --trace-events")
struct PictureOutputTests {
    @Test("two processes write the same page and trace-events file; the page draws every delivered frame")
    func deterministicPages() throws {
        let directory = (try temporaryFile("unused", contents: "") as NSString).deletingLastPathComponent
        var pages: [String] = []
        var events: [String] = []
        for run in 1...2 {
            let (page, json, trace) = ("\(directory)/\(run).html", "\(directory)/\(run).json", "\(directory)/\(run).jsonl")
            let result = try stagesim(["run", "Scenarios/net-2-one-way-partition.yaml", "--no-timeline", "--trace", trace, "--html", page, "--trace-events", json])
            #expect(result.status == 0, "\(result.errorOutput)")
            pages.append(try String(contentsOfFile: page, encoding: .utf8))
            events.append(try String(contentsOfFile: json, encoding: .utf8))
            let delivered = try String(contentsOfFile: trace, encoding: .utf8).components(separatedBy: "\"kind\":\"delivered\"").count - 1
            #expect(delivered > 0 && pages[run - 1].components(separatedBy: "<g class=\"arrow delivered ").count - 1 == delivered)
        }
        #expect(pages[0] == pages[1])
        #expect(events[0] == events[1])
        #expect(events[0].hasPrefix("{\"displayTimeUnit\":\"ms\",\"traceEvents\":["))
    }
}
