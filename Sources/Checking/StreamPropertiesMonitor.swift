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
public struct StreamPropertiesMonitor: InvariantMonitor {
    public var name: String { "streams-describe-their-publisher" }
    public var summary: String { "a created stream carries its publisher's video size and type, the user id it published with, and the creation time of its first publish" }
    public var rules: [String] { ["SUB-7"] }
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

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        if event.peer == TraceEvent.injectedSender { injected.insert(event.observer) }
        switch event.kind {
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

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        joinedAs.removeAll(keepingCapacity: true)
        injected.removeAll(keepingCapacity: true)
        // The stamps are the service's: steps that left it alone left them as they were.
        guard world.changesSinceTrace.service || !readStamps else { return [] }
        readStamps = true
        let participants = world.server.participants
        var found: [Violation] = []
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

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: what it holds is emptied at the end of the step that made it.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
