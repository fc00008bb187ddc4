import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// SUB-5 as the seed words it (`opentok-subscribe.en.txt`: publisherPropertyChanged is "caused
/// by the stream's publisher stopping the video stream"): a subscriber whose media flows has
/// been told `subscriberVideoDisabled(publisherPropertyChanged)`, and not since
/// `subscriberVideoEnabled(publisherPropertyChanged)`, exactly while its publisher sends no
/// unmuted video track, whichever way the video stopped (a video mute, a publish without
/// video) or came back. What each subscriber was told is kept from its events; at the end of
/// each step it is compared with the publisher's streams as the observer's SDK holds them, for
/// every `connected` subscriber of a client the step involved (video events are told only
/// while media flows; a change made before is told at connect). The comparison is the
/// monitor's own, not the model's `followPublisherMedia`. A disable told twice to one
/// subscriber object, or an enable never preceded by a disable, is reported at once; a new
/// subscriber object to the same stream (a subscribe after an unsubscribe, SUB-2/3) starts
/// untold, and is told at connect what the publisher changed before.
///
/// SUB-7 `hasAudio` ("Whether the stream has audio", worded as `hasVideo` is), checked at the
/// same moments: a connected subscriber's stream has audio exactly while its publisher sends an
/// unmuted audio track (Vonage's guides: `publishAudio` toggles `hasAudio`).
public struct PublisherVideoMonitor: InvariantMonitor {
    public var name: String { "subscribers-follow-publisher-video" }
    public var summary: String { "a connected subscriber has been told its publisher disabled video (publisherPropertyChanged) exactly while the publisher sends no unmuted video, and its stream has audio exactly while the publisher sends unmuted audio" }
    public var rules: [String] { ["SUB-5", "SUB-7"] }

    /// One observer's subscriber to one publisher's current stream.
    private struct Slot: Hashable, Sendable {
        var observer: String
        var publisherId: String
    }

    /// The subscribers told their publisher disabled video, and not told it was enabled since,
    /// each with the subscriber object told (`SubscriberTraceEvent.subscriber`).
    private var toldDisabled: [Slot: Int] = [:]
    /// Observers of the current step's events; emptied at its end.
    private var involved = StepNames()

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        involved.insert(event.observer)
        guard case .subscriber(let subscriber) = event.kind else { return [] }
        let slot = Slot(observer: event.observer, publisherId: subscriber.publisherId)
        switch subscriber.event {
        case .streamCreated:
            toldDisabled[slot] = nil
        case .subscriberVideoDisabled(.publisherPropertyChanged):
            guard toldDisabled.updateValue(subscriber.subscriber, forKey: slot) != subscriber.subscriber else {
                return [violation(event, index: index, "\(subscriber.streamId) was told a second time that its publisher disabled video")]
            }
        case .subscriberVideoEnabled(.publisherPropertyChanged):
            guard toldDisabled.removeValue(forKey: slot) == subscriber.subscriber else {
                return [violation(event, index: index, "\(subscriber.streamId) was told its publisher enabled video, never told it was disabled")]
            }
        default:
            break
        }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        defer { involved.removeAll() }
        var found: [Violation] = []
        for observer in involved {
            guard let client = world.clientIndex(named: observer) else { continue }
            for message in disagreements(of: observer, client: client, in: world) {
                found.append(Violation(invariant: name, rules: rules, time: time, observer: observer, eventIndex: lastEventIndex, message: message))
            }
        }
        return found
    }

    /// Each `connected` subscriber of `client` (named `observer`) whose publisher, as its view
    /// holds it, publishes and sends unmuted video exactly when the subscriber was told it
    /// disabled video, or sends unmuted audio exactly when its stream says it has none, in
    /// words. Reads the client's subscribers and remotes in place, field by field (this runs
    /// for every observer of every step).
    private func disagreements(of observer: String, client: Int, in world: World) -> [String] {
        let subscribers = world.clients[client].subscribers, view = world.clients[client].view
        var found: [String] = []
        for index in subscribers.indices where subscribers[index].state.phase == .connected {
            let publisherId = subscribers[index].publisherId
            guard let remote = view.index(of: publisherId), !view.remotes[remote].publishedStreams.isEmpty else { continue }
            let published = view.remotes[remote].publishedStreams
            let sendsVideo = published.contains { $0.kind == .video && !$0.isMuted }
            let sendsAudio = published.contains { $0.kind == .audio && !$0.isMuted }
            let hasAudio = subscribers[index].state.stream.hasAudio
            if hasAudio != sendsAudio {
                found.append("\(subscribers[index].state.stream.streamId) says hasAudio=\(hasAudio), yet \(publisherId) sends \(published)")
            }
            let told = !toldDisabled.isEmpty && toldDisabled[Slot(observer: observer, publisherId: publisherId)] == subscribers[index].subscriber
            guard told == sendsVideo else { continue }
            let streamId = subscribers[index].state.stream.streamId
            found.append(sendsVideo
                ? "\(streamId) was told its publisher disabled video, yet \(publisherId) sends \(published)"
                : "\(publisherId) sends \(published), yet \(streamId) was not told subscriberVideoDisabled(publisherPropertyChanged)")
        }
        return found
    }

    public static var keyReads: WorldReads { .clients }

    /// The subscribers told their publisher disabled video, as their difference from those the
    /// world's subscribers record as told (`announcedVideoDisabled`): the events the monitor
    /// reads are exactly those announcements, and a new stream's subscriber starts with none,
    /// so a run without a violation writes an empty difference. The step's observers are
    /// emptied at its end and stay out.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        guard !agreesWithRecord(world) else { return writer.write(UInt32(0)) }
        let expected = Dictionary(Self.recordedAsTold(world), uniquingKeysWith: { _, last in last })
        writer.writeDifference(toldDisabled, from: expected, key: { writer, slot in
            writer.writeName(slot.observer)
            writer.writeName(slot.publisherId)
        }, value: { writer, subscriber in writer.write(subscriber) })
    }

    /// Whether the subscribers told are exactly those the world records as told: then the
    /// difference is empty, found with no dictionary built.
    private func agreesWithRecord(_ world: World) -> Bool {
        var recorded = 0
        for (slot, subscriber) in Self.recordedAsTold(world) {
            recorded += 1
            guard toldDisabled[slot] == subscriber else { return false }
        }
        return recorded == toldDisabled.count
    }

    /// The subscribers the world records as told their publisher disabled video, each with
    /// its subscriber object's number; clients and subscribers read in place.
    private static func recordedAsTold(_ world: World) -> some Sequence<(Slot, Int)> {
        let clients = world.clients
        return clients.indices.lazy.flatMap { client in
            let subscribers = clients[client].subscribers
            return subscribers.indices.lazy
                .filter { subscribers[$0].state.announcedVideoDisabled.contains(.publisherPropertyChanged) }
                .map { (Slot(observer: clients[client].name, publisherId: subscribers[$0].publisherId), subscribers[$0].subscriber) }
        }
    }
}
