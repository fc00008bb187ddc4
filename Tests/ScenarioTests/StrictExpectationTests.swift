import Testing
@testable import Scenario

/// Issue 14, point 1: every key of an expectation is checked against the event kind it names,
/// so that an expectation that can never match is a load error, not a silent pass.
@Suite("Strict expectations")
struct StrictExpectationTests {
    /// Two participants; `first`'s token jti is `shared`.
    static let header = """
        name: strict
        duration: 10s
        participants:
          - {name: first, tokenJti: shared}
          - {name: viewer}
        expect:

        """

    private func error(_ expectation: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(Self.header + "  - " + expectation + "\n", path: "strict.yaml")
            return nil
        } catch {
            return error as? ScenarioError
        }
    }

    private func matcher(_ expectation: String) throws -> EventMatcher? {
        try ScenarioLoader.parse(Self.header + "  - " + expectation + "\n", path: "strict.yaml").expectations.first?.matcher
    }

    @Test("a filter that cannot apply to the event is an error at the key, naming the event's filters")
    func inapplicableFilter() {
        let found = error("{never: stageError, participant: first}")
        #expect(found?.line == 7)
        #expect(found?.column == 25)
        #expect(found?.message == "'participant' does not apply to stageError; its filters: contains, error, observer, operation")
    }

    @Test("state, error and userId do not apply to subscriber events", arguments: ["state: connected", "error: FAILED", "userId: u"])
    func subscriberFilters(filter: String) {
        let key = filter.prefix { $0 != ":" }
        #expect(error("{event: subscriberDidConnectToStream, \(filter)}")?.message
            == "'\(key)' does not apply to subscriberDidConnectToStream; its filters: contains, observer, participant")
    }

    @Test("an unknown state names the event's states, sorted")
    func unknownState() {
        #expect(error("{never: publishState, state: publised}")?.message
            == "unknown state 'publised' for publishState; expected one of: attemptingPublish, errored, notPublished, published")
    }

    @Test("a state of another event kind is unknown for this one")
    func stateOfAnotherKind() {
        #expect(error("{event: connectionState, state: published}")?.message.hasPrefix("unknown state 'published' for connectionState") == true)
    }

    @Test("unknown error codes, stream kinds, reasons, operations, frame types and questions are errors", arguments: [
        ("{event: stageError, error: TOKEN_BAD}", "unknown error 'TOKEN_BAD' for stageError; expected one of: CANCELED, CODEC_MISMATCH,"),
        ("{event: didAddStreams, streams: [screen]}", "unknown stream kind 'screen'; expected one of: audio, video"),
        ("{event: subscriberVideoDisabled, reason: lag}", "unknown reason 'lag' for subscriberVideoDisabled; expected one of: publisherPropertyChanged, qualityChanged,"),
        ("{event: stageError, operation: leave}", "unknown operation 'leave' for stageError; expected one of: connection, exchangeToken, publish"),
        ("{event: signaling, type: hello}", "unknown type 'hello' for signaling; expected one of: answer, candidate,"),
        ("{event: strategyAsked, question: shouldLeave}", "unknown question 'shouldLeave' for strategyAsked; expected one of: shouldPublish, shouldSubscribe"),
    ])
    func unknownValues(expectation: String, message: String) {
        #expect(error(expectation)?.message.hasPrefix(message) == true)
    }

    @Test("the issue's example fails at its first inapplicable filter")
    func issueExample() {
        #expect(error("{never: stageError, participant: m137, userId: nobody, state: bogus, streams: [video]}")?.message
            == "'participant' does not apply to stageError; its filters: contains, error, observer, operation")
    }

    @Test("a participant nobody is, by name or jti, is an error listing names and jtis")
    func unknownParticipant() {
        #expect(error("{event: participantDidJoin, participant: m137}")?.message
            == "unknown participant 'm137'; expected a participant's name or token jti: first (jti shared), viewer")
    }

    @Test("a name and a jti both resolve to the participant id the events carry", arguments: ["first", "shared"])
    func nameOrJti(value: String) throws {
        #expect(try matcher("{event: participantDidJoin, participant: \(value)}")?.participant == "shared")
    }

    @Test("an observer must be a participant; the service observes only its own events and frames")
    func observers() throws {
        #expect(error("{event: participantDidJoin, observer: shared}")?.message
            == "unknown observer 'shared' for participantDidJoin; expected one of: first, viewer")
        #expect(error("{event: ejected, observer: viewer}")?.message == "unknown observer 'viewer' for ejected; expected one of: service")
        #expect(try matcher("{event: signaling, observer: service}")?.observer == "server")
    }

    @Test("a window the run never reaches is an error at its end")
    func windowBeyondRun() {
        let found = error("{never: publishState, within: [5s, 20s]}")
        #expect(found?.column == 40)
        #expect(found?.message == "within ends at 20s, after the run ends at 10s: the run never reaches that time")
    }

    @Test("count goes with event only, and any goes with never only")
    func modeCombinations() {
        #expect(error("{never: publishState, count: 1}")?.message == "'count' goes with 'event', not with 'never'")
        #expect(error("{event: any}")?.message == "'any' goes with 'never' only")
    }
}
