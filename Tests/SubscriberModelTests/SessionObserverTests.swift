import Testing
import SubscriberModel

@Suite("Session observer (SUB-1, SUB-3)")
struct SessionObserverTests {
    let other = Fixture.stream(id: "theirs", connection: "conn-other")
    let mine = Fixture.stream(id: "mine", connection: "conn-me")

    @Test("SUB-1: another client's stream sends streamCreated and is not own")
    func othersStream() {
        var observer = SessionObserver(sessionId: "session", ownConnectionId: "conn-me")
        #expect(observer.streamAppeared(other) == [.streamCreated(other)])
        #expect(observer.isOwn(other) == false)
        #expect(observer.othersStreams == [other])
        #expect(observer.lastIgnored == nil)
    }

    @Test("SUB-1 (seed): the own stream also reaches streamCreated; isOwn tells it by connection id")
    func ownStreamDeliveredPerSeed() {
        var observer = SessionObserver(sessionId: "session", ownConnectionId: "conn-me")
        #expect(observer.streamAppeared(mine) == [.streamCreated(mine)])
        #expect(observer.isOwn(mine))
        #expect(observer.othersStreams.isEmpty)
        #expect(observer.streams == [mine])
    }

    @Test("SUB-1: with deliversOwnStreams = false only others' streams are announced")
    func ownStreamSuppressed() {
        var observer = SessionObserver(sessionId: "session", ownConnectionId: "conn-me", deliversOwnStreams: false)
        #expect(observer.streamAppeared(mine) == [])
        #expect(observer.streamAppeared(other) == [.streamCreated(other)])
        #expect(observer.streamLeft(streamId: "mine", reason: .clientDisconnected) == [])
        #expect(observer.streamLeft(streamId: "theirs", reason: .clientDisconnected)
            == [.streamDestroyed(other, reason: .clientDisconnected)])
    }

    @Test("SUB-1: a client with no connection id owns nothing")
    func noConnectionOwnsNothing() {
        let observer = SessionObserver(ownConnectionId: "")
        #expect(observer.isOwn(OpenTokStream(streamId: "x", connectionId: "")) == false)
    }

    @Test("SUB-3: streamDestroyed when a stream leaves, with its reason; the stream is forgotten")
    func streamLeaves() {
        var observer = SessionObserver(ownConnectionId: "conn-me")
        observer.streamAppeared(other)
        #expect(observer.streamLeft(streamId: "theirs", reason: .forceUnpublished)
            == [.streamDestroyed(other, reason: .forceUnpublished)])
        #expect(observer.streams.isEmpty)
        #expect(observer.stream(withId: "theirs") == nil)
    }

    @Test("SUB-1/SUB-3: duplicate, foreign-session, unknown and reused stream ids are ignored and reported")
    func nonsenseIgnored() {
        var observer = SessionObserver(sessionId: "session", ownConnectionId: "conn-me")
        observer.streamAppeared(other)
        #expect(observer.streamAppeared(other) == [])
        #expect(observer.lastIgnored != nil)

        var foreign = other
        foreign.streamId = "elsewhere"
        foreign.sessionId = "another-session"
        #expect(observer.streamAppeared(foreign) == [])
        #expect(observer.lastIgnored?.contains("another-session") == true)

        #expect(observer.streamLeft(streamId: "nope", reason: .mediaStopped) == [])
        #expect(observer.lastIgnored != nil)

        observer.streamLeft(streamId: "theirs", reason: .clientDisconnected)
        #expect(observer.streamAppeared(other) == [])
        #expect(observer.lastIgnored != nil)
        #expect(observer.streams.isEmpty)
    }
}
