import StageCore

/// A remote stream as the IVS page hands it to the app (RND-4..6, LST-5): the SDK's
/// `IVSStageStream`, an object a renderer's `didAdd streams: [IVSStageStream]` gives, that the
/// same stage's later `didChangeMutedStreams` and `didRemove` give again, with `isMuted` current.
///
/// "To get the latest WebRTC statistics for a publishing stream or a subscribing stream, use
/// requestRTCStats on IVSStageStream. When a collection is completed, you will receive
/// statistics through the IVSStageStreamDelegate which can be set on IVSStageStream":
/// `try stream.requestRTCStats()` collects the stream's statistics at the simulation's virtual
/// time (`World.rtcStats`, the observer being the stage that was given the stream), and the
/// simulation hands them to the `delegate` set at delivery once per request, when it next
/// steps: at the start of the next `run(for:)`, or, for a request made from a callback, after
/// that step's callbacks. The object is a handle: the stream's state lives in the world.
public final class IVSStageStream {
    /// The stream as a value: whose it is, what it carries, whether it is muted.
    public private(set) var stream: StageStream
    /// Receives the statistics of each `requestRTCStats()` (weak, as in the SDK).
    public weak var delegate: (any IVSStageStreamDelegate)?
    /// The stage whose renderers were given this stream; nil once they were told it went away.
    weak var observer: Stage?

    init(_ stream: StageStream, observer: Stage) {
        self.stream = stream
        self.observer = observer
    }

    /// The publisher's participant id.
    public var participantId: String { stream.participantId }
    /// What the stream carries.
    public var kind: MediaKind { stream.kind }
    /// Whether the publisher has muted the stream (RND-6), as of the latest renderer event.
    public var isMuted: Bool { stream.isMuted }

    /// LST-5: asks for the stream's statistics; the delegate receives them when the simulation
    /// next steps. Throws `StageStreamError.noStatistics` for a stream its stage's renderers
    /// were told went away (didRemoveStreams), or whose stage is not in a simulation.
    public func requestRTCStats() throws(StageStreamError) {
        guard let observer, let simulation = observer.simulation,
              let stats = observer.requestRTCStats(for: stream) else {
            throw StageStreamError.noStatistics(participantId: participantId, kind: kind)
        }
        simulation.collected(stats, for: self)
    }

    /// A later renderer event's view of the same stream (its mute state).
    func update(_ current: StageStream) { stream = current }
}

/// The SDK's `IVSStageStreamDelegate` (LST-5): receives a stream's requested statistics.
public protocol IVSStageStreamDelegate: AnyObject {
    /// The statistics of one `requestRTCStats()`: report id -> member -> value.
    func stream(_ stream: IVSStageStream, didGenerateRTCStats stats: [String: [String: String]])
}

/// Why `IVSStageStream.requestRTCStats()` collected nothing (LST-5).
public enum StageStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stream is neither published nor subscribed by the stage that was given it.
    case noStatistics(participantId: String, kind: MediaKind)

    public var description: String {
        switch self {
        case .noStatistics(let id, let kind): "no statistics for \(id)'s \(kind.rawValue) stream: its stage no longer receives it"
        }
    }
}

/// A stage's stream objects, one per remote stream its renderers were given and still have,
/// so every renderer event about a stream hands out the same object (RND-4..6).
struct StreamObjects {
    private struct Key: Hashable {
        var participantId: String
        var kind: MediaKind
    }

    private var objects: [Key: IVSStageStream] = [:]

    /// The objects for a renderer event's streams, in the event's order: new ones at
    /// didAddStreams, the same ones, updated, afterwards; didRemoveStreams lets them go.
    mutating func objects(for event: RendererEvent, observer: Stage) -> [IVSStageStream] {
        switch event {
        case .didAddStreams(_, let streams):
            return streams.map { stream in
                let object = IVSStageStream(stream, observer: observer)
                objects[Key(participantId: stream.participantId, kind: stream.kind)] = object
                return object
            }
        case .didChangeMutedStreams(_, let streams):
            return streams.map { object(for: $0, observer: observer) }
        case .didRemoveStreams(_, let streams):
            return streams.map { stream in
                let object = object(for: stream, observer: observer)
                objects[Key(participantId: stream.participantId, kind: stream.kind)] = nil
                object.observer = nil
                return object
            }
        default:
            return []
        }
    }

    /// The object given for `stream`, updated to it (a new one if none was given).
    private mutating func object(for stream: StageStream, observer: Stage) -> IVSStageStream {
        let key = Key(participantId: stream.participantId, kind: stream.kind)
        guard let object = objects[key] else {
            let object = IVSStageStream(stream, observer: observer)
            objects[key] = object
            return object
        }
        object.update(stream)
        return object
    }
}
