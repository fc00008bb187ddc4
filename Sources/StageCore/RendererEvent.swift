/// One callback of the SDK's renderer protocol, as delivered to one observer (RND-1).
public enum RendererEvent: Hashable, Sendable {
    case participantDidJoin(ParticipantInfo)
    case participantDidLeave(ParticipantInfo)
    case publishStateChanged(ParticipantInfo, PublishState, StageError?)
    case subscribeStateChanged(ParticipantInfo, SubscribeState, StageError?)
    case didAddStreams(ParticipantInfo, [StageStream])
    case didRemoveStreams(ParticipantInfo, [StageStream])
    case didChangeMutedStreams(ParticipantInfo, [StageStream])
    case connectionStateChanged(ConnectionState, StageError?)
    case participantMetadataDidUpdate(ParticipantInfo)

    /// The callback's name as scenario expectations spell it.
    public var name: String {
        switch self {
        case .participantDidJoin: "participantDidJoin"
        case .participantDidLeave: "participantDidLeave"
        case .publishStateChanged: "publishState"
        case .subscribeStateChanged: "subscribeState"
        case .didAddStreams: "didAddStreams"
        case .didRemoveStreams: "didRemoveStreams"
        case .didChangeMutedStreams: "didChangeMutedStreams"
        case .connectionStateChanged: "connectionState"
        case .participantMetadataDidUpdate: "participantMetadataDidUpdate"
        }
    }

    public static let allNames = [
        "participantDidJoin", "participantDidLeave", "publishState", "subscribeState", "didAddStreams",
        "didRemoveStreams", "didChangeMutedStreams", "connectionState", "participantMetadataDidUpdate",
    ]

    /// The participant the event is about; nil for connection-state changes.
    public var participant: ParticipantInfo? {
        switch self {
        case .participantDidJoin(let info), .participantDidLeave(let info), .participantMetadataDidUpdate(let info),
             .publishStateChanged(let info, _, _), .subscribeStateChanged(let info, _, _),
             .didAddStreams(let info, _), .didRemoveStreams(let info, _), .didChangeMutedStreams(let info, _):
            info
        case .connectionStateChanged:
            nil
        }
    }

    /// The streams the event carries (add, remove, mute); empty for the others.
    public var streams: [StageStream] {
        switch self {
        case .didAddStreams(_, let streams), .didRemoveStreams(_, let streams), .didChangeMutedStreams(_, let streams):
            streams
        default:
            []
        }
    }

    /// The new state's name for state-change events (`subscribed`, `connected`, ...), else nil.
    public var stateName: String? {
        switch self {
        case .publishStateChanged(_, let state, _): state.rawValue
        case .subscribeStateChanged(_, let state, _): state.rawValue
        case .connectionStateChanged(let state, _): state.rawValue
        default: nil
        }
    }

    public var error: StageError? {
        switch self {
        case .publishStateChanged(_, _, let error), .subscribeStateChanged(_, _, let error),
             .connectionStateChanged(_, let error):
            error
        default:
            nil
        }
    }
}
