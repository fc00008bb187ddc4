@testable import Drivers
@testable import Scenario
import Testing

@Suite("Exhaustive mode")
struct ExhaustiveTests {
    /// A viewer that sees one publisher come and go, with every renderer event it gets.
    static func scenario(expect: String, exhaustive: String = "[viewer]") -> String {
        """
        name: exhaustive sample
        duration: 4s
        participants:
          - name: viewer
            strategy: {publish: false, subscribe: audioVideo}
          - name: host
        steps:
          - {at: 0s, participant: viewer, call: join}
          - {at: 1s, participant: host, call: join}
          - {at: 3s, participant: viewer, call: leave}
        exhaustive: \(exhaustive)
        expect:
        \(expect)
        """
    }

    static let everyEvent = """
          - {event: connectionState, observer: viewer, state: connecting, count: 1}
          - {event: connectionState, observer: viewer, state: connected, count: 1}
          - {event: participantDidJoin, observer: viewer, participant: viewer, count: 1}
          - {event: participantDidJoin, observer: viewer, participant: host, count: 1}
          - {event: publishState, observer: viewer, participant: host, state: published, count: 1}
          - {event: subscribeState, observer: viewer, participant: host, state: attemptingSubscribe}
          - {event: subscribeState, observer: viewer, participant: host, state: subscribed}
          - {event: didAddStreams, observer: viewer, participant: host, streams: [audio, video], count: 1}
          - {event: didRemoveStreams, observer: viewer, participant: host, within: [3s, 3s]}
          - {event: subscribeState, observer: viewer, participant: host, state: notSubscribed}
          - {event: publishState, observer: viewer, participant: host, state: notPublished}
          - {event: participantDidLeave, observer: viewer, participant: host}
          - {event: participantDidLeave, observer: viewer, participant: viewer}
          - {event: connectionState, observer: viewer, state: disconnected}
        """

    @Test("every renderer event matched in order passes")
    func passes() throws {
        let run = ScenarioRunner.run(try ScenarioLoader.parse(Self.scenario(expect: Self.everyEvent), path: "pass.yaml"))
        let result = try #require(run.exhaustiveResults.first)
        #expect(result.passed, "\(result.diff.map(\.text))")
        #expect(result.summary == "exhaustive viewer: 14 events, all expected in order")
        #expect(result.observer.line == 11)
        #expect(run.passed)
    }

    @Test("a missing and an unexpected event fail with a -/+ diff")
    func failsWithDiff() throws {
        let lines = Self.everyEvent.split(separator: "\n")
        // Drops the first event's expectation and adds one that never happens (a second join).
        let edited = (lines.dropFirst().prefix(4) + ["  - {event: participantDidJoin, observer: viewer, participant: host, count: 1}"]
            + lines.dropFirst(5)).joined(separator: "\n")
        let run = ScenarioRunner.run(try ScenarioLoader.parse(Self.scenario(expect: edited), path: "fail.yaml"))
        let result = try #require(run.exhaustiveResults.first)
        #expect(!run.passed)
        #expect(result.summary == "exhaustive viewer: 1 unexpected and 1 missing of 14 events")
        #expect(Array(result.diff.map(\.text).prefix(6)) == [
            "+ 0.000s connectionState -> connecting",
            "  0.040s connectionState -> connected  (line 13)",
            "  0.040s participantDidJoin viewer (local)  (line 14)",
            "  1.080s participantDidJoin host  (line 15)",
            "  1.080s publishState host -> published  (line 16)",
            "- line 17: participantDidJoin observer=viewer participant=host x1",
        ])
    }

    @Test("events out of order show where each one was expected")
    func outOfOrder() throws {
        let swapped = """
              - {event: connectionState, observer: viewer, state: connected, count: 1}
              - {event: connectionState, observer: viewer, state: connecting, count: 1}
        """
        let run = ScenarioRunner.run(try ScenarioLoader.parse(Self.scenario(expect: swapped), path: "order.yaml"))
        let diff = try #require(run.exhaustiveResults.first).diff.map(\.text)
        #expect(Array(diff.prefix(3)) == [
            "+ 0.000s connectionState -> connecting",
            "  0.040s connectionState -> connected  (line 13)",
            "- line 14: connectionState observer=viewer state=connecting x1",
        ])
    }

    @Test("an unknown observer is an error at its line and column")
    func unknownObserver() {
        let text = Self.scenario(expect: "  []", exhaustive: "[viewer, guest]")
        #expect(throws: ScenarioError(file: "bad.yaml", line: 11, column: 22,
                                      message: "unknown participant 'guest'; declared: host, viewer")) {
            try ScenarioLoader.parse(text, path: "bad.yaml")
        }
    }

    @Test("an observer listed twice is an error at the second")
    func repeatedObserver() {
        let text = Self.scenario(expect: "  []", exhaustive: "[viewer, viewer]")
        #expect(throws: ScenarioError(file: "bad.yaml", line: 11, column: 22, message: "observer 'viewer' is listed twice in exhaustive")) {
            try ScenarioLoader.parse(text, path: "bad.yaml")
        }
    }
}
