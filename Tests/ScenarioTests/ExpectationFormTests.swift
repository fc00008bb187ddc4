@testable import Drivers
@testable import Scenario
import Simulation
import StageCore
import StageWorld
import Testing

/// Issue 14, point 2: what users can now say — order between expectations, nothingBefore,
/// subject filters, strategy questions, the service as an observer, `never: any`, the
/// keepalive-silence fault and whip/events URLs on the initial token.
@Suite("Expectation forms")
struct ExpectationFormTests {
    static let header = """
        name: forms
        duration: 10s
        participants:
          - {name: host, attributes: {role: presenter}, whipUrl: "https://w.invalid/whip", eventsUrl: "wss://e.invalid/events"}
          - {name: viewer, capabilities: [subscribe]}

        """

    private func load(_ body: String) throws -> Scenario {
        try ScenarioLoader.parse(Self.header + body, path: "forms.yaml")
    }

    private func error(_ body: String) -> String? {
        do {
            _ = try load(body)
            return nil
        } catch {
            return (error as? ScenarioError)?.message
        }
    }

    /// Judges `expect` lines against a hand-made trace.
    private func judge(_ expect: [String], _ events: [TraceEvent]) throws -> [Bool] {
        let scenario = try load("expect:\n" + expect.map { "  - \($0)\n" }.joined())
        var trace = Trace()
        trace.append(contentsOf: events)
        return ScenarioRunner.evaluate(scenario.expectations, trace: trace).map(\.passed)
    }

    private static let host = ParticipantInfo(participantId: "host", attributes: ["role": "presenter"])

    private static func at(_ milliseconds: UInt64, _ observer: String, _ kind: TraceEvent.Kind) -> TraceEvent {
        TraceEvent(time: .zero + .milliseconds(milliseconds), observer: observer, kind: kind)
    }

    @Test("after/before look past or before the labelled expectation's first match")
    func order() throws {
        let events = [
            Self.at(1, "viewer", .renderer(.subscribeStateChanged(Self.host, .subscribed, nil))),
            Self.at(2, "viewer", .renderer(.participantDidJoin(Self.host))),
            Self.at(3, "viewer", .renderer(.didAddStreams(Self.host, [StageStream(participantId: "host", kind: .audio)]))),
        ]
        let results = try judge([
            "{event: participantDidJoin, observer: viewer, label: joined}",
            "{event: didAddStreams, observer: viewer, after: joined}",
            "{never: subscribeState, observer: viewer, before: joined}",
            "{event: subscribeState, observer: viewer, after: joined}",
        ], events)
        #expect(results == [true, true, false, false])
    }

    @Test("after a labelled event that never happens sees nothing; before it sees everything")
    func missingAnchor() throws {
        let events = [Self.at(1, "viewer", .renderer(.participantDidJoin(Self.host)))]
        let results = try judge([
            "{event: participantDidLeave, observer: viewer, label: left}",
            "{never: participantDidJoin, observer: viewer, after: left}",
            "{event: participantDidJoin, observer: viewer, before: left}",
        ], events)
        #expect(results == [false, true, true])
    }

    @Test("labels: unknown, duplicate, on never, both after and before, and loops are errors", arguments: [
        ("{event: publishState, after: nowhere}", "unknown label 'nowhere'; labels: "),
        ("{event: publishState, label: a}\n  - {event: subscribeState, label: a}", "label 'a' is used twice"),
        ("{never: publishState, label: a}", "'label' goes with an 'event' expectation that must occur (not 'never' or count 0)"),
        ("{event: publishState, label: a}\n  - {event: subscribeState, after: a, before: a}", "an expectation takes 'after' or 'before', not both"),
        ("{event: publishState, label: a, after: b}\n  - {event: subscribeState, label: b, after: a}", "'b' refers back to itself through after/before"),
    ])
    func labelErrors(expect: String, message: String) {
        #expect(error("expect:\n  - \(expect)\n") == message)
    }

    @Test("nothingBefore flags an event about the participant before the observer's first anchor")
    func nothingBefore() throws {
        let early = [
            Self.at(1, "viewer", .renderer(.publishStateChanged(Self.host, .published, nil))),
            Self.at(2, "viewer", .renderer(.participantDidJoin(Self.host))),
        ]
        let line = "{nothingBefore: participantDidJoin, participant: host}"
        #expect(try judge([line], early) == [false])
        #expect(try judge([line], Array(early.reversed())) == [true])
        #expect(try judge([line], [early[0]]) == [false])
        #expect(error("expect:\n  - {nothingBefore: participantDidJoin}\n") == "'nothingBefore' needs 'participant': whom nothing may be about")
        #expect(error("expect:\n  - {nothingBefore: connectionState, participant: host}\n")
            == "nothingBefore needs an event about a participant; connectionState has none")
    }

    @Test("isMuted, attributes (a subset) and capabilities (exact) filter on the subject and its streams")
    func subjectFilters() throws {
        let muted = StageStream(participantId: "host", kind: .audio, isMuted: true)
        let video = StageStream(participantId: "host", kind: .video)
        let events = [Self.at(1, "viewer", .renderer(.didChangeMutedStreams(Self.host, [muted, video])))]
        let results = try judge([
            "{event: didChangeMutedStreams, streams: [audio], isMuted: true}",
            "{event: didChangeMutedStreams, isMuted: true}",
            "{event: didChangeMutedStreams, attributes: {role: presenter}, capabilities: [publish, subscribe]}",
            "{event: didChangeMutedStreams, attributes: {role: guest}}",
            "{event: didChangeMutedStreams, capabilities: [subscribe]}",
        ], events)
        #expect(results == [true, false, true, false, false])
    }

    @Test("strategyAsked matches the questions a query asked")
    func strategyQuestions() throws {
        var asked = StrategyQueryReport(canPublish: true)
        asked.askedShouldPublish = true
        let events = [Self.at(1, "host", .strategyQueried(asked)), Self.at(1, "viewer", .strategyQueried(StrategyQueryReport(canPublish: false)))]
        let results = try judge([
            "{event: strategyAsked, observer: host, question: shouldPublish}",
            "{never: strategyAsked, observer: viewer, question: shouldPublish}",
            "{event: strategyAsked, observer: viewer, question: shouldSubscribe}",
        ], events)
        #expect(results == [true, true, true])
    }

    @Test("the service observes admissions, ejections and refusals; never: any sees every nameable event")
    func serviceAndAny() throws {
        let events = [
            Self.at(1, "server", .service(.admitted(Self.host))),
            Self.at(2, "server", .service(.ejected(participantId: "viewer", reason: "token-reused"))),
            Self.at(3, "viewer", .hostCall(.leave)),
            Self.at(4, "viewer", .protocolError(frame: "x", reason: "not JSON")),
        ]
        let results = try judge([
            "{event: admitted, observer: service, participant: host, attributes: {role: presenter}}",
            "{event: ejected, participant: viewer, contains: token-reused}",
            "{never: refused, observer: service}",
            "{never: any, observer: viewer, within: [3ms, 3ms]}",
            "{never: any, observer: viewer, within: [4ms, 4ms]}",
        ], events)
        #expect(results == [true, true, true, true, false])
    }

    @Test("keepalive: silent loads as a silence of one participant; other values are errors")
    func keepaliveSilence() throws {
        let scenario = try load("faults:\n  - {keepalive: silent, participant: viewer, from: 2s, to: 5s}\n")
        #expect(scenario.faults.keepaliveSilences == [KeepaliveSilence(clientName: "viewer", start: .zero + .seconds(2), end: .zero + .seconds(5))])
        #expect(scenario.faults.silencesKeepalive(of: "viewer", at: .zero + .seconds(4)))
        #expect(!scenario.faults.silencesKeepalive(of: "viewer", at: .zero + .seconds(5)))
        #expect(error("faults:\n  - {keepalive: loud, participant: viewer, from: 2s, to: 5s}\n") == "keepalive takes the value 'silent'")
    }

    @Test("whipUrl and eventsUrl set the initial token's claims")
    func tokenURLs() throws {
        guard case .signed(let claims, _)? = try load("").participants.first?.config.token else { Issue.record("no signed token"); return }
        #expect(claims.whipURL == "https://w.invalid/whip")
        #expect(claims.eventsURL == "wss://e.invalid/events")
    }
}
