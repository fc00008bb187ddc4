import StageCore

/// The host application's view of the stage, as the SDK's `IVSStageRenderer` (RND-1, STG-2).
///
/// Every callback has an empty default, so a renderer implements only what it needs. The
/// simulation calls a stage's renderers in trace order, between steps, on the caller of
/// `StageSimulation.run(for:)`. A callback may call `join()`, `leave()` or `refreshStrategy()`;
/// the call is scheduled at the event's virtual time. Renderer events never feed back into the
/// strategy by themselves (STR-7).
public protocol StageRenderer: AnyObject {
    /// RND-2: a participant started publishing (or the local participant connected, `isLocal`).
    func stage(_ stage: Stage, participantDidJoin participant: ParticipantInfo)
    /// RND-2, RND-3: a participant stopped publishing or left; follows every other event about it.
    func stage(_ stage: Stage, participantDidLeave participant: ParticipantInfo)
    /// A participant's publish state changed (RND-1): the local participant's, and a remote's
    /// (`published` right after its join, `notPublished` right before its leave).
    func stage(_ stage: Stage, participant: ParticipantInfo, didChange publishState: PublishState)
    /// The subscription to a remote participant changed state (RND-1).
    func stage(_ stage: Stage, participant: ParticipantInfo, didChange subscribeState: SubscribeState)
    /// RND-4: streams became available after subscribing completed.
    func stage(_ stage: Stage, participant: ParticipantInfo, didAdd streams: [StageStream])
    /// RND-5: streams went away (unpublish, unsubscribe, audioVideo -> audioOnly, leave).
    func stage(_ stage: Stage, participant: ParticipantInfo, didRemove streams: [StageStream])
    /// RND-6: a remote publisher muted or unmuted; each stream's `isMuted` is current.
    func stage(_ stage: Stage, participant: ParticipantInfo, didChangeMutedStreams streams: [StageStream])
    /// RND-4, the same event with the streams as objects, as the IVS page's renderer writes it
    /// (`didAdd streams: [IVSStageStream]`): each stream is an object with a delegate and
    /// `requestRTCStats()` (LST-5), and later events about it give the same object. Both forms
    /// are called for every event: a renderer implements one of the two.
    func stage(_ stage: Stage, participant: ParticipantInfo, didAdd streams: [IVSStageStream])
    /// RND-5 with the streams as the objects didAdd gave.
    func stage(_ stage: Stage, participant: ParticipantInfo, didRemove streams: [IVSStageStream])
    /// RND-6 with the streams as the objects didAdd gave, `isMuted` current.
    func stage(_ stage: Stage, participant: ParticipantInfo, didChangeMutedStreams streams: [IVSStageStream])
    /// STG-2: the stage's connection state changed, with the error that caused it, if any, in
    /// the IVS page's signature (`withError error: Error?`); the error is a `StageError`.
    func stage(_ stage: Stage, didChange connectionState: ConnectionState, withError error: (any Error)?)
    /// STG-2, the same change with the error typed (`StageError?`), as StageSim's API first
    /// wrote it. Both are called for every change: a renderer implements one of the two.
    func stage(_ stage: Stage, didChange connectionState: ConnectionState, withError error: StageError?)
    /// VIS-1: a participant's userId or attributes changed (mobile >= 1.37.0 only).
    func stage(_ stage: Stage, participantMetadataDidUpdate participant: ParticipantInfo)
}

extension StageRenderer {
    public func stage(_ stage: Stage, participantDidJoin participant: ParticipantInfo) {}
    public func stage(_ stage: Stage, participantDidLeave participant: ParticipantInfo) {}
    public func stage(_ stage: Stage, participant: ParticipantInfo, didChange publishState: PublishState) {}
    public func stage(_ stage: Stage, participant: ParticipantInfo, didChange subscribeState: SubscribeState) {}
    public func stage(_ stage: Stage, participant: ParticipantInfo, didAdd streams: [StageStream]) {}
    public func stage(_ stage: Stage, participant: ParticipantInfo, didRemove streams: [StageStream]) {}
    public func stage(_ stage: Stage, participant: ParticipantInfo, didChangeMutedStreams streams: [StageStream]) {}
    public func stage(_ stage: Stage, participant: ParticipantInfo, didAdd streams: [IVSStageStream]) {}
    public func stage(_ stage: Stage, participant: ParticipantInfo, didRemove streams: [IVSStageStream]) {}
    public func stage(_ stage: Stage, participant: ParticipantInfo, didChangeMutedStreams streams: [IVSStageStream]) {}
    public func stage(_ stage: Stage, didChange connectionState: ConnectionState, withError error: (any Error)?) {}
    public func stage(_ stage: Stage, didChange connectionState: ConnectionState, withError error: StageError?) {}
    public func stage(_ stage: Stage, participantMetadataDidUpdate participant: ParticipantInfo) {}
}

/// The stage's one error delegate, as the SDK's `IVSErrorDelegate` (STG-1): publish and
/// subscribe errors (e.g. STAGE_AT_CAPACITY, STG-4). Join errors arrive with the connection
/// state change (`stage(_:didChange:withError:)`, STG-2, TOK-1).
public protocol StageErrorDelegate: AnyObject {
    func stage(_ stage: Stage, didEmitError error: StageError)
}

extension RendererEvent {
    /// Calls the renderer callback this event stands for; a stream event's object form gets
    /// `objects`, the stage's objects for its streams.
    func deliver(to renderer: any StageRenderer, from stage: Stage, objects: [IVSStageStream]) {
        switch self {
        case .participantDidJoin(let info):
            renderer.stage(stage, participantDidJoin: info)
        case .participantDidLeave(let info):
            renderer.stage(stage, participantDidLeave: info)
        case .publishStateChanged(let info, let state, _):
            renderer.stage(stage, participant: info, didChange: state)
        case .subscribeStateChanged(let info, let state, _):
            renderer.stage(stage, participant: info, didChange: state)
        case .didAddStreams(let info, let streams):
            renderer.stage(stage, participant: info, didAdd: streams)
            renderer.stage(stage, participant: info, didAdd: objects)
        case .didRemoveStreams(let info, let streams):
            renderer.stage(stage, participant: info, didRemove: streams)
            renderer.stage(stage, participant: info, didRemove: objects)
        case .didChangeMutedStreams(let info, let streams):
            renderer.stage(stage, participant: info, didChangeMutedStreams: streams)
            renderer.stage(stage, participant: info, didChangeMutedStreams: objects)
        case .connectionStateChanged(let state, let error):
            renderer.stage(stage, didChange: state, withError: error)
            renderer.stage(stage, didChange: state, withError: error.map { $0 as any Error })
        case .participantMetadataDidUpdate(let info):
            renderer.stage(stage, participantMetadataDidUpdate: info)
        }
    }

    /// The error a publish or subscribe state change carries: the error delegate's business.
    var delegateError: StageError? {
        switch self {
        case .publishStateChanged(_, _, let error), .subscribeStateChanged(_, _, let error): error
        default: nil
        }
    }
}
