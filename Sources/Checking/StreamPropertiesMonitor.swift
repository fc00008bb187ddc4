import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// SUB-7, in the seed's words: a stream's `name` "is set when you initialize the Publisher of
/// the stream", `videoDimensions` are "the current dimensions of the video media track on this
/// stream" and `videoType` says "whether the stream uses a camera video source, a
/// screen-sharing video source, or a custom video source". So a stream a client is told of
/// with streamCreated describes its publisher's own settings: its video configuration's width
/// and height (or those of a video stream with its own configuration that it published, LST-3:
/// `Client.videoSizesPublished`), its configured video type, and, as the model
/// names a publisher by its user id, the user id of the publish that created it (the info of
/// the participantDidJoin that comes with the streamCreated in the same step, RND-2, SUB-1).
///
/// `creationTime` is "the timestamp for the creation time of the stream": the service stamps
/// it when a participant starts publishing, and a stream keeps it while its publisher goes on
/// publishing (a change of its tracks or mutes, a reconnect the service kept it through, SUB-4)
/// and no stream is told of before it was created. So, at the service, a participant that
/// publishes at the end of two observed steps in a row keeps its stamp, and no stream is told
/// with a later creation time than the moment it is told. (Whether a first publish is stamped
/// with its own step's time is not judged: a monitor set may start watching a run after its
/// publishes, as a test that observes a finished run's events at once does.)
///
/// Two clients may share a token's participant id (TOK-10), so a stream whose size and type
/// match either holder's settings passes; a participant id no client holds is not judged, nor
/// is a stream announced in a step where the observer received an injected frame (a scenario's
/// `inject`, which may describe a publisher as it likes).
///
/// LST-3, LST-4, SUB-7 from what was configured and what was told, not from the model's own
/// records (`remoteProperties`, `videoSizesPublished`):
/// - every subscriber of a connected client, from its stream's creation to its end, shows the
///   size and the layers (their heights, bitrates and frame rate) of the publish its client
///   was last told of while connected (the `participantPublished` or `joinAccepted` frame
///   delivered to it, a reconnect's too): a republish with other settings reaches viewers
///   already watching, and later ones;
/// - once a publisher's publish is answered and nothing is owed (checked at the end of a run),
///   the service holds the configuration of the video stream the strategy last returned
///   (its own, `IVSLocalStageStream(device:configuration:)`, or else the participant's), as
///   the rules state it: that size and frame rate; one layer without simulcast, two or three
///   with it; every layer's bitrate within minBitrate...maxBitrate, the largest at maxBitrate;
///   no layer taller than the configured frames, the tallest exactly as tall (a landscape
///   1280x720's top layer is 720 high, not its long side).
public struct StreamPropertiesMonitor: InvariantMonitor {
    public var name: String { "streams-describe-their-publisher" }
    public var summary: String { "a stream carries its publisher's video size, layers and type as configured and as last told, the user id it published with, and the creation time of its first publish" }
    public var rules: [String] { ["SUB-7", "LST-3", "LST-4"] }
    /// The user id each remote publisher was announced with in the current step, by observer
    /// and participant id; emptied at the end of the step.
    private var joinedAs: [ObserverParticipant: String] = [:]
    /// Observers that received an injected frame in the current step; emptied at its end.
    private var injected: Set<String> = []
    /// The creation time the service held, at the end of the previous step, for each
    /// participant then publishing. Always what the world then held: a verdict reads it, a
    /// state key never needs it (the world it was read from is in the key).
    private var creationTimes: [String: UInt64] = [:]
    /// Whether `creationTimes` has been read from a world: from then on only a step that
    /// changed the service can change what it should hold.
    private var readStamps = false
    /// The publisher settings each observer was last told with a publish, by observer and
    /// participant id: what a frame delivered to it said.
    private var told: [ObserverParticipant: PublisherProperties] = [:]
    /// The own configuration of the video stream each client's strategy last returned, by
    /// client name; absent for one without (the participant's configuration applies).
    private var returnedVideo: [String: VideoConfiguration] = [:]

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        if event.peer == TraceEvent.injectedSender { injected.insert(event.observer) }
        switch event.kind {
        case .delivered(.participantPublished(let snapshot), _) where Self.isConnected(event.observer, in: world):
            noteTold(snapshot, observer: event.observer)
        case .delivered(.joinAccepted(let snapshots, _), _) where Self.isConnected(event.observer, in: world):
            for snapshot in snapshots { noteTold(snapshot, observer: event.observer) }
        case .strategyQueried(let report):
            guard let streams = report.streamsReturned else { return [] }
            returnedVideo[event.observer] = streams.first { $0.kind == .video }?.video
        case .renderer(.participantDidJoin(let info)) where !info.isLocal:
            joinedAs[ObserverParticipant(observer: event.observer, participantId: info.participantId)] = info.userId
        case .subscriber(let told):
            guard case .streamCreated(let stream) = told.event, !injected.contains(event.observer) else { return [] }
            var found: [Violation] = []
            if stream.creationTime > event.time.nanoseconds {
                found.append(violation(event, index: index, "stream \(stream.streamId) of \(told.publisherId) was created at \(VirtualTime(nanoseconds: stream.creationTime)), after it is told"))
            }
            if let userId = joinedAs[ObserverParticipant(observer: event.observer, participantId: told.publisherId)], stream.name != userId {
                found.append(violation(event, index: index, "stream \(stream.streamId) of \(told.publisherId) is named \(TraceText.json(stream.name)), but it was published by user \(TraceText.json(userId))"))
            }
            let shown = VideoShape(width: stream.videoDimensions.width, height: stream.videoDimensions.height, type: stream.videoType)
            let settings = world.clients.indices.flatMap { holder in
                world.clients[holder].claims?.participantId == told.publisherId ? VideoShape.published(by: world.clients[holder]) : []
            }
            if !settings.isEmpty && !settings.contains(shown) {
                found.append(violation(event, index: index, "stream \(stream.streamId) of \(told.publisherId) is \(shown), but \(told.publisherId) publishes \(settings.map(\.description).joined(separator: " or "))"))
            }
            if Self.isConnected(event.observer, in: world), let message = disagreement(of: stream, observer: event.observer, publisherId: told.publisherId) {
                found.append(violation(event, index: index, message))
            }
            return found
        default:
            break
        }
        return []
    }

    /// A stream's video size and type, compared as values and written only into a verdict.
    private struct VideoShape: Equatable, CustomStringConvertible {
        var width: Int
        var height: Int
        var type: OpenTokStream.VideoType

        init(width: Int, height: Int, type: OpenTokStream.VideoType) {
            (self.width, self.height, self.type) = (width, height, type)
        }

        /// Every shape `client` may have published: its configured video's, and the sizes of
        /// video streams with their own configuration it has published (LST-3).
        static func published(by client: Client) -> [VideoShape] {
            let type = client.config.videoType
            return [VideoShape(width: client.config.video.widthPixels, height: client.config.video.heightPixels, type: type)]
                + client.videoSizesPublished.map { VideoShape(width: $0.width, height: $0.height, type: type) }
        }

        var description: String { "\(width)x\(height) \(type)" }
    }

    /// Whether the client `name` is connected: a frame that reaches a client that has left (or
    /// whose join it no longer waits for) tells it nothing, and its subscribers are judged
    /// again once a join tells it the stage anew.
    private static func isConnected(_ name: String, in world: World) -> Bool {
        world.clientIndex(named: name).map { world.clients[$0].view.local.connectionState == .connected } ?? false
    }

    /// A publish told to `observer`: a snapshot with streams (one without is a participant
    /// that does not publish, and tells nothing of its video).
    private mutating func noteTold(_ snapshot: PublisherSnapshot, observer: String) {
        guard !snapshot.streams.isEmpty else { return }
        told[ObserverParticipant(observer: observer, participantId: snapshot.info.participantId)] = snapshot.properties
    }

    /// How `stream`, of `publisherId` at `observer`, differs from the publish the observer was
    /// last told of, in words; nil when it shows that publish's size, and its layers if it has
    /// any (a stream announced without video has none).
    private func disagreement(of stream: OpenTokStream, observer: String, publisherId: String) -> String? {
        guard !told.isEmpty, let properties = told[ObserverParticipant(observer: observer, participantId: publisherId)] else { return nil }
        if stream.videoDimensions.width != properties.widthPixels || stream.videoDimensions.height != properties.heightPixels {
            let size = "\(properties.widthPixels)x\(properties.heightPixels)"
            return "stream \(stream.streamId) of \(publisherId) is \(stream.videoDimensions.width)x\(stream.videoDimensions.height), but \(observer) was told \(publisherId) publishes \(size)"
        }
        guard !stream.layers.isEmpty, !Self.sameLayers(stream.layers, properties) else { return nil }
        let shown = stream.layers.map { "\($0.height)p@\(Int($0.framesPerSecond)) \($0.bitsPerSecond) bps" }
        let published = properties.layers.map { "\($0.heightPixels)p@\(properties.framesPerSecond) \($0.bitrateBitsPerSecond) bps" }
        return "stream \(stream.streamId) of \(publisherId) has layers \(shown), but \(observer) was told \(publisherId) publishes \(published)"
    }

    /// Whether `layers` are the published ones, in order: height, bitrate and frame rate each
    /// (compared as numbers; words are made only for a verdict: this runs for every subscriber
    /// of every client a step changed).
    private static func sameLayers(_ layers: [OpenTokStream.Layer], _ properties: PublisherProperties) -> Bool {
        layers.count == properties.layers.count && zip(layers, properties.layers).allSatisfy { shown, published in
            shown.height == published.heightPixels && shown.bitsPerSecond == UInt64(max(published.bitrateBitsPerSecond, 0))
                && shown.framesPerSecond == Double(properties.framesPerSecond)
        }
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        joinedAs.removeAll(keepingCapacity: true)
        injected.removeAll(keepingCapacity: true)
        var found: [Violation] = []
        if !told.isEmpty {
            for client in world.changesSinceTrace.clients.sorted() where world.clients[client].view.local.connectionState == .connected {
                let observer = world.clients[client].name, subscribers = world.clients[client].subscribers
                for slot in subscribers.indices where !subscribers[slot].state.phase.isTerminal {
                    guard let message = disagreement(of: subscribers[slot].state.stream, observer: observer, publisherId: subscribers[slot].publisherId) else { continue }
                    found.append(Violation(invariant: name, rules: rules, time: time, observer: observer, eventIndex: lastEventIndex, message: message))
                }
            }
        }
        // The stamps are the service's: steps that left it alone left them as they were.
        guard world.changesSinceTrace.service || !readStamps else { return found }
        readStamps = true
        let participants = world.server.participants
        var publishing = 0, sameStamps = true
        for index in participants.indices where !participants[index].publishedStreams.isEmpty {
            publishing += 1
            let id = participants[index].info.participantId
            let stamp = participants[index].properties.creationTimeNanoseconds
            guard let expected = creationTimes[id] else {
                sameStamps = false
                continue
            }
            guard stamp != expected else { continue }
            sameStamps = false
            found.append(Violation(invariant: name, rules: rules, time: time, observer: "server", eventIndex: lastEventIndex,
                                   message: "the service holds \(id)'s stream as created at \(VirtualTime(nanoseconds: stamp)), but it has published since its stream was created at \(VirtualTime(nanoseconds: expected))"))
        }
        if !sameStamps || publishing != creationTimes.count { creationTimes = Self.stamps(of: participants) }
        return found
    }

    /// The creation time the service holds for each participant publishing.
    private static func stamps(of participants: [ServerParticipant]) -> [String: UInt64] {
        var stamps: [String: UInt64] = [:]
        for index in participants.indices where !participants[index].publishedStreams.isEmpty {
            stamps[participants[index].info.participantId] = participants[index].properties.creationTimeNanoseconds
        }
        return stamps
    }

    /// At the end of a run: each participant the service holds as publishing, whose client is
    /// connected, published and owes no publish answer, is held with the configuration its
    /// strategy last returned.
    public func finish(world: World) -> [Violation] {
        var found: [Violation] = []
        for participant in world.server.participants where !participant.publishedStreams.isEmpty && world.clients.indices.contains(participant.clientIndex) {
            let client = world.clients[participant.clientIndex]
            guard client.view.local.connectionState == .connected, client.view.local.publishState == .published, client.publishRepliesOwed == 0,
                  let message = Self.disagreement(participant.properties, configured: returnedVideo[client.name] ?? client.config.video) else { continue }
            found.append(Violation(invariant: name, rules: rules, time: world.now, observer: "server", eventIndex: nil,
                                   message: "the service holds \(participant.info.participantId)'s publish as \(message)"))
        }
        return found
    }

    /// How `properties` differ from what `configuration` publishes by LST-3 and LST-4, in
    /// words; nil when they agree.
    static func disagreement(_ properties: PublisherProperties, configured configuration: VideoConfiguration) -> String? {
        let wanted = "\(configuration.widthPixels)x\(configuration.heightPixels)@\(configuration.targetFramerateFramesPerSecond), bitrate \(configuration.minBitrateBitsPerSecond)...\(configuration.maxBitrateBitsPerSecond) bps, simulcast \(configuration.simulcastEnabled)"
        let held = "\(properties.widthPixels)x\(properties.heightPixels)@\(properties.framesPerSecond) with layers \(properties.layers)"
        let layers = properties.layers
        let agrees = properties.widthPixels == configuration.widthPixels && properties.heightPixels == configuration.heightPixels
            && properties.framesPerSecond == configuration.targetFramerateFramesPerSecond
            && (configuration.simulcastEnabled ? (2...3).contains(layers.count) : layers.count == 1)
            && layers.allSatisfy { (configuration.minBitrateBitsPerSecond...configuration.maxBitrateBitsPerSecond).contains($0.bitrateBitsPerSecond) }
            && layers.map(\.bitrateBitsPerSecond).max() == configuration.maxBitrateBitsPerSecond
            && layers.map(\.heightPixels).max() == configuration.heightPixels && layers.allSatisfy { $0.heightPixels >= 1 }
        return agrees ? nil : "\(held), but its strategy's video is configured \(wanted)"
    }

    /// Reads the clients' strategies and remote properties (`encodeState`).
    public static var keyReads: WorldReads { .clients }

    /// What it told and was returned, as the difference from what the clients record: the
    /// properties each remembers of its publishers, and the configuration of the video stream
    /// it holds as its strategy's answer. A run without a violation writes empty differences.
    /// The rest is emptied at the end of the step that made it.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        var recordedTold: [ObserverParticipant: PublisherProperties] = [:]
        var recordedVideo: [String: VideoConfiguration] = [:]
        for client in world.clients {
            for (publisherId, properties) in client.remoteProperties {
                recordedTold[ObserverParticipant(observer: client.name, participantId: publisherId)] = properties
            }
            recordedVideo[client.name] = client.view.local.streams.first { $0.kind == .video }?.video
        }
        writer.writeDifference(told, from: recordedTold, key: { writer, key in key.encode(into: &writer) }, value: { writer, properties in
            for number in [properties.widthPixels, properties.heightPixels, properties.framesPerSecond, properties.layers.count] { writer.write(number) }
            for layer in properties.layers {
                writer.write(layer.heightPixels)
                writer.write(layer.bitrateBitsPerSecond)
            }
        })
        writer.writeDifference(returnedVideo, from: recordedVideo, key: { writer, name in writer.writeName(name) }, value: { writer, video in
            for number in [video.widthPixels, video.heightPixels, video.targetFramerateFramesPerSecond, video.minBitrateBitsPerSecond, video.maxBitrateBitsPerSecond] { writer.write(number) }
            writer.write(UInt8(video.simulcastEnabled ? 1 : 0))
        })
    }
}
