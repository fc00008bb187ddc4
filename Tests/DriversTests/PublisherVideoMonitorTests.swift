@testable import Checking
import Drivers
import Scenario
import Simulation
import StageCore
import SubscriberModel
import Testing
@testable import StageWorld

/// PublisherVideoMonitor (SUB-5): a connected subscriber has been told
/// `subscriberVideoDisabled(publisherPropertyChanged)` exactly while its publisher sends no
/// unmuted video. The bundled SUB-5 scenarios must pass; the violations are made by hand on
/// the world of a subscribed pair ("viewer" connected to "pub"'s audio and video).
@Suite("PublisherVideoMonitor (SUB-5)")
struct PublisherVideoMonitorTests {
    /// What `viewer` hears about pub's stream: a subscriber event, or (nil) a frame from the service.
    /// `subscriber`: which subscriber object of the stream hears it (`SubscriberTraceEvent.subscriber`).
    static func event(_ subscriberEvent: SubscriberEvent?, subscriber: Int = 1) -> TraceEvent {
        guard let subscriberEvent else { return TraceEvent(time: .seconds(6), observer: "viewer", kind: .delivered(.ping, frame: ""), peer: "server") }
        let told = SubscriberTraceEvent(publisherId: "pub", streamId: "pub-1", event: subscriberEvent, subscriber: subscriber)
        return TraceEvent(time: .seconds(6), observer: "viewer", kind: .subscriber(told))
    }

    /// The pair's world with pub's video, as viewer's SDK holds it, muted or not; `subscriber`:
    /// the number of viewer's subscriber object to pub's stream (2 after an unsubscribe and a
    /// new subscribe).
    static func world(videoMuted: Bool, subscriber: Int = 1) throws -> World {
        var world = try subscribedPairWorld()
        let viewer = try #require(world.clientIndex(named: "viewer"))
        let pub = try #require(world.clients[viewer].view.index(of: "pub"))
        try #require(world.clients[viewer].subscribers.first?.state.phase == .connected)
        world.clients[viewer].subscribers[0].subscriber = subscriber
        for position in world.clients[viewer].view[index: pub].publishedStreams.indices where world.clients[viewer].view[index: pub].publishedStreams[position].kind == .video {
            world.clients[viewer].view[index: pub].publishedStreams[position].isMuted = videoMuted
        }
        return world
    }

    /// The messages of a fresh monitor shown `steps`, one step each.
    static func messages(_ steps: [(TraceEvent, World)]) -> [String] {
        var monitors = MonitorSet([PublisherVideoMonitor()])
        for (event, world) in steps { monitors.observe([event], world: world) }
        return monitors.violations.map(\.message)
    }

    static let disabled = SubscriberEvent.subscriberVideoDisabled(reason: .publisherPropertyChanged)
    static let enabled = SubscriberEvent.subscriberVideoEnabled(reason: .publisherPropertyChanged)

    @Test("the bundled SUB-5 scenarios pass, and the monitor sees the publisher's video go off", arguments: [
        "sub-5-video-disabled-reasons", "sub-5-publisher-stops-video-stream", "lst-2-new-stream-instance-mute",
    ])
    func realRuns(_ name: String) throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(name).yaml")
        var disables = 0
        let violations = monitoredRun(of: scenario, with: PublisherVideoMonitor()) { events in
            disables += events.filter { if case .subscriber(let subscriber) = $0.kind { subscriber.event == Self.disabled } else { false } }.count
        }.violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        #expect(disables > 0)
    }

    @Test("a video mute the subscriber is not told of is reported; told, it passes")
    func muteNotTold() throws {
        let muted = try Self.world(videoMuted: true)
        #expect(Self.messages([(Self.event(nil), muted)]) == ["pub sends [audio, video(muted)], yet pub-1 was not told subscriberVideoDisabled(publisherPropertyChanged)"])
        #expect(Self.messages([(Self.event(Self.disabled), muted)]).isEmpty)
    }

    @Test("a disable told while the publisher sends video is reported, and so is an unmute not told")
    func disableWithoutCause() throws {
        let sending = try Self.world(videoMuted: false), muted = try Self.world(videoMuted: true)
        #expect(Self.messages([(Self.event(Self.disabled), sending)]) == ["pub-1 was told its publisher disabled video, yet pub sends [audio, video]"])
        #expect(Self.messages([(Self.event(Self.disabled), muted), (Self.event(nil), sending)]) == ["pub-1 was told its publisher disabled video, yet pub sends [audio, video]"])
        #expect(Self.messages([(Self.event(Self.disabled), muted), (Self.event(Self.enabled), sending)]).isEmpty)
    }

    @Test("an enable never preceded by a disable, and a disable told twice, are reported at once")
    func unpairedEvents() throws {
        let sending = try Self.world(videoMuted: false), muted = try Self.world(videoMuted: true)
        #expect(Self.messages([(Self.event(Self.enabled), sending)]) == ["pub-1 was told its publisher enabled video, never told it was disabled"])
        #expect(Self.messages([(Self.event(Self.disabled), muted), (Self.event(Self.disabled), muted)]) == ["pub-1 was told a second time that its publisher disabled video"])
    }

    @Test("a new subscriber object to the same stream (SUB-2/3) is told the disable afresh, once")
    func newSubscriberToldAgain() throws {
        let first = try Self.world(videoMuted: true), second = try Self.world(videoMuted: true, subscriber: 2)
        #expect(Self.messages([(Self.event(Self.disabled), first), (Self.event(Self.disabled, subscriber: 2), second)]).isEmpty)
        #expect(Self.messages([(Self.event(Self.disabled), first), (Self.event(nil), second)]) == ["pub sends [audio, video(muted)], yet pub-1 was not told subscriberVideoDisabled(publisherPropertyChanged)"])
        #expect(Self.messages([(Self.event(Self.disabled, subscriber: 2), second), (Self.event(Self.disabled, subscriber: 2), second)]) == ["pub-1 was told a second time that its publisher disabled video"])
    }

    @Test("a client is judged afresh at every step that involves it: one that agreed, then changed, is reported")
    func judgedAtEveryStep() throws {
        let sending = try Self.world(videoMuted: false), muted = try Self.world(videoMuted: true)
        let viewer = try #require(sending.clientIndex(named: "viewer"))
        var silent = sending
        silent.clients[viewer].subscribers[0].state.publisherAudioChanged(enabled: false)
        #expect(Self.messages([(Self.event(nil), sending), (Self.event(nil), silent)]) == ["pub-1 says hasAudio=false, yet pub sends [audio, video]"])
        var mutedLater = sending
        let pub = try #require(sending.clients[viewer].view.index(of: "pub"))
        let video = try #require(sending.clients[viewer].view[index: pub].publishedStreams.firstIndex { $0.kind == .video })
        mutedLater.clients[viewer].view[index: pub].publishedStreams[video].isMuted = true
        #expect(Self.messages([(Self.event(nil), sending), (Self.event(nil), mutedLater)]) == ["pub sends [audio, video(muted)], yet pub-1 was not told subscriberVideoDisabled(publisherPropertyChanged)"])
        #expect(Self.messages([(Self.event(Self.disabled), muted), (Self.event(Self.enabled), muted)]) == ["pub sends [audio, video(muted)], yet pub-1 was not told subscriberVideoDisabled(publisherPropertyChanged)"])
    }

    @Test("SUB-7: a stream whose hasAudio disagrees with the publisher's audio mute is reported, either way")
    func hasAudioFollowsAudioMute() throws {
        var muted = try Self.world(videoMuted: false)
        let viewer = try #require(muted.clientIndex(named: "viewer"))
        let pub = try #require(muted.clients[viewer].view.index(of: "pub"))
        let audio = try #require(muted.clients[viewer].view[index: pub].publishedStreams.firstIndex { $0.kind == .audio })
        muted.clients[viewer].view[index: pub].publishedStreams[audio].isMuted = true
        #expect(Self.messages([(Self.event(nil), muted)]) == ["pub-1 says hasAudio=true, yet pub sends [audio(muted), video]"])
        muted.clients[viewer].subscribers[0].state.publisherAudioChanged(enabled: false)
        #expect(Self.messages([(Self.event(nil), muted)]).isEmpty)
        let sending = try Self.world(videoMuted: false)
        var silent = sending
        silent.clients[viewer].subscribers[0].state.publisherAudioChanged(enabled: false)
        #expect(Self.messages([(Self.event(nil), sending)]).isEmpty)
        #expect(Self.messages([(Self.event(nil), silent)]) == ["pub-1 says hasAudio=false, yet pub sends [audio, video]"])
    }
}
