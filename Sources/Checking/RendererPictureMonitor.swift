import Simulation
import StageCore
import StageWorld

/// RND-5, RND-6, STR-6, STG-3: what a client's renderers were told adds up to what its SDK
/// holds. Per observer the monitor paints the picture its renderer events give (the streams
/// added per remote with their mute state, each remote's subscribe state, its own publish and
/// connection state) and, at the end of every step, requires it to equal the client's view for
/// every client the step told something. A change the SDK made without telling its renderers
/// (an unmute not reported, a subscription ended silently) or told without making is caught at
/// once; the convergence monitor holds the view itself to the stage service's truth. Every
/// removal needs a cause the view shows: the remote no longer publishes the kind, the answer
/// no longer allows it, the subscription is not up, the remote or the local participant is
/// gone (so audioVideo -> audioOnly removes only the video, STR-6). A publish abandoned while
/// still being attempted, on a connection that stays up, ends with CANCELED (STG-3).
public struct RendererPictureMonitor: InvariantMonitor {
    public var name: String { "renderers-told-every-change" }
    public var summary: String { "what each client's renderers were told equals what its SDK holds after every step; a stream is removed only for a cause; an abandoned publish attempt ends CANCELED" }
    public var rules: [String] { ["RND-5", "RND-6", "STR-6", "STG-3"] }

    /// The picture of one client its renderer events paint.
    struct Picture: Hashable, Sendable {
        var connection: ConnectionState = .disconnected
        var publish: PublishState = .notPublished
        /// Per remote participant id: the kinds added, each with its mute state.
        var streams: [String: [MediaKind: Bool]] = [:]
        /// Per remote participant id: the last subscribe state told (absent: not subscribed).
        var subscribe: [String: SubscribeState] = [:]

        /// What the client's view says its renderers must have been told.
        init(_ view: StageView) {
            connection = view.local.connectionState
            publish = view.local.publishState
            for remote in view.remotes {
                if !remote.addedStreams.isEmpty {
                    streams[remote.info.participantId] = Dictionary(remote.addedStreams.map { ($0.kind, $0.isMuted) }) { _, last in last }
                }
                if remote.subscribeState != .notSubscribed { subscribe[remote.info.participantId] = remote.subscribeState }
            }
        }

        init() {}

        /// Whether the picture is `Picture(view)`, compared in place, remote by remote and field
        /// by field with no remote copied (this runs after every step and for every state key).
        func agrees(with view: StageView) -> Bool {
            guard connection == view.local.connectionState, publish == view.local.publishState else { return false }
            let remotes = view.remotes
            var withStreams = 0, subscribing = 0
            for position in remotes.indices {
                let id = remotes[position].info.participantId, state = remotes[position].subscribeState
                if state != .notSubscribed { subscribing += 1 }
                guard subscribe[id] ?? .notSubscribed == state else { return false }
                let added = remotes[position].addedStreams
                guard !added.isEmpty else { continue }
                withStreams += 1
                guard let told = streams[id], told.count == added.count, added.allSatisfy({ told[$0.kind] == $0.isMuted }) else { return false }
            }
            return withStreams == streams.count && subscribing == subscribe.count
        }

        /// Canonically, names through the renaming.
        func encode(into writer: inout CanonicalWriter) {
            writer.write(connection.rawValue)
            writer.write(publish.rawValue)
            writer.writeUnordered(streams) { writer, entry in
                writer.writeName(entry.key)
                for (kind, muted) in entry.value.sorted(by: { $0.key < $1.key }) {
                    writer.write(kind.rawValue)
                    writer.write(muted)
                }
            }
            writer.writeUnordered(subscribe) { writer, entry in
                writer.writeName(entry.key)
                writer.write(entry.value.rawValue)
            }
        }
    }

    /// A stream removal or an abandoned publish, judged at the end of its step.
    private enum Claim: Hashable, Sendable {
        case removed(observer: String, participantId: String, kind: MediaKind)
        case abandonedPublish(observer: String, error: StageError?)
    }

    private var pictures: [String: Picture] = [:]
    /// Observers of the current step's events (a client a step changes is the observer of
    /// one of its events: a delivery, a timer, a host call); emptied at its end.
    private var observersThisStep = StepNames()
    /// Claims of the current step; emptied at its end.
    private var claims: [Claim] = []
    /// Observers whose picture a renderer event of the current step painted; emptied at its end.
    private var paintedThisStep = StepNames()
    /// Per client index: the client's `viewWrites` when its picture last agreed with its view.
    /// A client whose picture was not painted since and whose view was not written since
    /// still agrees, and is not compared again (this runs for every observer of every step).
    private var agreedAtViewWrite = ClientIndexed<UInt64>()

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        let observer = event.observer
        observersThisStep.insert(observer)
        guard let renderer = event.rendererEvent else { return [] }
        paintedThisStep.insert(observer)
        var picture = pictures[observer] ?? Picture()
        paint(renderer, observer: observer, on: &picture)
        pictures[observer] = picture
        return []
    }

    /// Applies one renderer event to the picture, noting the claims to judge at the step's end.
    private mutating func paint(_ renderer: RendererEvent, observer: String, on picture: inout Picture) {
        switch renderer {
        case .connectionStateChanged(let state, _):
            picture.connection = state
        case .publishStateChanged(let who, let state, let error) where who.isLocal:
            if picture.publish == .attemptingPublish && state == .notPublished { claims.append(.abandonedPublish(observer: observer, error: error)) }
            picture.publish = state
        case .subscribeStateChanged(let who, let state, _):
            picture.subscribe[who.participantId] = state == .notSubscribed ? nil : state
        case .didAddStreams(let who, let streams), .didChangeMutedStreams(let who, let streams):
            for stream in streams { picture.streams[who.participantId, default: [:]][stream.kind] = stream.isMuted }
        case .didRemoveStreams(let who, let streams):
            for stream in streams {
                picture.streams[who.participantId]?[stream.kind] = nil
                claims.append(.removed(observer: observer, participantId: who.participantId, kind: stream.kind))
            }
            if picture.streams[who.participantId]?.isEmpty == true { picture.streams[who.participantId] = nil }
        case .participantDidLeave(let who):
            picture.subscribe[who.participantId] = nil
        default:
            break
        }
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        guard !observersThisStep.isEmpty else { return [] }
        var messages: [(observer: String, message: String)] = []
        for claim in claims {
            if let found = judge(claim, world: world) { messages.append(found) }
        }
        for observer in observersThisStep.sorted() {
            guard let client = world.clientIndex(named: observer) else { continue }
            let written = world.clients[client].viewWrites.value
            if !paintedThisStep.contains(observer) && agreedAtViewWrite[client] == written { continue }
            if let message = judgePicture(of: observer, view: world.clients[client].view) {
                messages.append((observer, message))
                agreedAtViewWrite[client] = nil
            } else {
                agreedAtViewWrite[client] = written
            }
        }
        observersThisStep.removeAll()
        paintedThisStep.removeAll()
        claims.removeAll(keepingCapacity: true)
        return messages.map { Violation(invariant: name, rules: rules, time: time, observer: $0.observer, eventIndex: lastEventIndex, message: $0.message) }
    }

    /// Whether client `client`'s picture agrees with its view between steps: known without
    /// comparing when the view was last written when they last agreed (`endOfStep` notes that
    /// for every observer of a step, and only a step's observers are painted).
    private func pictureAgrees(ofClient client: Int, world: World) -> Bool {
        if agreedAtViewWrite[client] == world.clients[client].viewWrites.value { return true }
        return (pictures[world.clients[client].name] ?? Picture()).agrees(with: world.clients[client].view)
    }

    /// Forgets the subscriptions told to remotes the view no longer holds, then compares the
    /// observer's picture with its view (borrowed in place: this runs for every observer of
    /// every step); the difference when they disagree. A picture that agrees as it is holds
    /// no such subscription (`agrees` counts every told subscription against the view's
    /// remotes), so only one that disagrees is searched for them.
    private mutating func judgePicture(of observer: String, view: StageView) -> String? {
        var told = pictures[observer] ?? Picture()
        guard !told.agrees(with: view) else { return nil }
        if told.subscribe.contains(where: { view.index(of: $0.key) == nil }) {
            told.subscribe = told.subscribe.filter { view.index(of: $0.key) != nil }
            pictures[observer] = told
        }
        return told.agrees(with: view) ? nil : Self.difference(told: told, held: Picture(view))
    }

    /// The violation a claim makes, if its cause is missing from the world the step left.
    private func judge(_ claim: Claim, world: World) -> (observer: String, message: String)? {
        switch claim {
        case .removed(let observer, let id, let kind):
            guard let client = world.clientIndex(named: observer).map({ world.clients[$0] }),
                  client.view.local.connectionState == .connected, let remote = client.view[id],
                  remote.subscribeState == .subscribed, remote.publishedStreams.contains(where: { $0.kind == kind }),
                  remote.target(canSubscribe: client.view.local.info.capabilities.canSubscribe).allows(kind) else { return nil }
            return (observer, "didRemoveStreams took \(kind.rawValue) of \(id) away while \(id) still publishes it and the subscription (\(remote.requested.rawValue), answer \(remote.answer.rawValue)) allows it")
        case .abandonedPublish(let observer, let error):
            guard error?.code != .canceled,
                  let client = world.clientIndex(named: observer).map({ world.clients[$0] }),
                  client.view.local.connectionState == .connected else { return nil }
            return (observer, "a publish still being attempted ended notPublished with \(error.map { "\($0.code)" } ?? "no error"), not CANCELED")
        }
    }

    /// What the renderers were told and the SDK holds, where they differ.
    private static func difference(told: Picture, held: Picture) -> String {
        var parts: [String] = []
        if told.connection != held.connection { parts.append("connection \(told.connection.rawValue) told, \(held.connection.rawValue) held") }
        if told.publish != held.publish { parts.append("publish \(told.publish.rawValue) told, \(held.publish.rawValue) held") }
        for id in Set(told.streams.keys).union(held.streams.keys).sorted() where told.streams[id] != held.streams[id] {
            parts.append("streams of \(id) told \(describe(told.streams[id])), held \(describe(held.streams[id]))")
        }
        for id in Set(told.subscribe.keys).union(held.subscribe.keys).sorted() where told.subscribe[id] != held.subscribe[id] {
            parts.append("subscription to \(id) told \(told.subscribe[id]?.rawValue ?? "notSubscribed"), held \(held.subscribe[id]?.rawValue ?? "notSubscribed")")
        }
        return "its renderers were not told what its SDK holds: " + parts.joined(separator: "; ")
    }

    private static func describe(_ streams: [MediaKind: Bool]?) -> String {
        let kinds = (streams ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key.rawValue)\($0.value ? " (muted)" : "")" }
        return "[\(kinds.joined(separator: ", "))]"
    }

    public static var keyReads: WorldReads { .clients }

    /// Each client's picture where it differs from what its view implies (`Picture(view)`;
    /// no picture reads as the initial one): empty in a run without a violation, so it splits
    /// no world state, and exact, since the world is in the key too. The per-step notes are
    /// empty between steps. The view writes a picture last agreed at stay out: they only spare
    /// comparisons whose outcome the picture and the view already decide.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        var differing: [String] = []
        for client in world.clients.indices where !pictureAgrees(ofClient: client, world: world) { differing.append(world.clients[client].name) }
        writer.writeUnordered(differing) { writer, observer in
            writer.writeName(observer)
            (pictures[observer] ?? Picture()).encode(into: &writer)
        }
    }
}
