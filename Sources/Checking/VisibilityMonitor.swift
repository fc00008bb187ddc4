import Simulation
import StageCore
import StageWorld

extension WireMessage {
    /// Whether a mobile >= 1.37.0 SDK must render a metadata change this message brings about
    /// an announced participant at once: an update, or the snapshot of a reconnect (VIS-3).
    var carriesLiveUpdate: Bool {
        switch self {
        case .participantUpdated, .joinAccepted: true
        default: false
        }
    }
}

/// The part of a ParticipantInfo that token exchange changes and VIS is about.
struct VisibleMetadata: Hashable, Sendable, CustomStringConvertible {
    var userId: String
    var attributes: Attributes

    init(_ info: ParticipantInfo) {
        userId = info.userId
        attributes = info.attributes
    }

    var description: String { "user=\(userId) \(attributes)" }

    /// The user id and the attribute pairs (kept sorted by key), as the world writes claims.
    func encode(into writer: inout CanonicalWriter) {
        writer.write(userId)
        writer.write(UInt32(attributes.pairs.count))
        for pair in attributes.pairs {
            writer.write(pair.key)
            writer.write(pair.value)
        }
    }
}

/// VIS-1..4: at every moment, what each observer's renderers show of each remote participant's
/// userId and attributes is what its SDK kind may see, given what the stage service has told it:
/// - participantDidJoin shows the newest metadata received, silent updates included (VIS-2, VIS-4);
/// - participantMetadataDidUpdate reaches only mobile >= 1.37.0, only for an announced
///   participant, with the newest metadata, and only when its userId or attributes differ
///   from what the renderers were shown (VIS-1: the event is for "remote participants that
///   exchange tokens to update their userId or attributes"); such an observer gets it for
///   every update that arrives while the participant is announced (VIS-3, VIS-4);
/// - every other event of a join..leave shows what the renderers were last shown: older mobile,
///   web and composition never see an update before the participant publishes again (VIS-3).
public struct VisibilityMonitor: InvariantMonitor {
    public var name: String { "metadata-visibility" }
    public var summary: String { "each observer sees a participant's userId/attributes only as its SDK kind may, and mobile >= 1.37.0 gets every update" }
    public var rules: [String] { ["VIS-1", "VIS-2", "VIS-3", "VIS-4"] }
    /// The newest metadata each observer's SDK has received about each participant, while the
    /// SDK keeps it: until the participant leaves or the observer disconnects (its SDK forgets
    /// its remotes then and ignores what arrives until it joins again, `Client.handle`).
    private var received: [ObserverParticipant: VisibleMetadata] = [:]
    /// What each observer's renderers were last shown, while the participant is announced.
    private var shown: [ObserverParticipant: VisibleMetadata] = [:]
    /// Observers whose renderers were last told `disconnected`.
    private var disconnected: Set<String> = []
    /// Updates a mobile >= 1.37.0 observer has received and not yet rendered.
    private var owed: [ObserverParticipant: TraceEvent] = [:]

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        switch event.kind {
        case .delivered(let message, _):
            guard let clientIndex = world.clientIndex(named: event.observer) else { return [] }
            let overdue = settle(observer: event.observer, before: event, index: index)
            // A client still connecting (it has given its connection up and is reconnecting)
            // ignores what arrives on the old one, and a disconnected one ignores everything.
            if world.clients[clientIndex].view.local.connectionState != .connecting && !disconnected.contains(event.observer) {
                receive(message, observer: event.observer, sdk: world.clients[clientIndex].sdk, at: event)
            }
            return overdue
        case .renderer(.connectionStateChanged(let state, _)):
            guard world.clientIndex(named: event.observer) != nil else { return [] }
            if state == .disconnected {
                disconnected.insert(event.observer)
                received = received.filter { $0.key.observer != event.observer }
            } else {
                disconnected.remove(event.observer)
            }
            return []
        case .renderer(let renderer):
            guard let info = renderer.participant, !info.isLocal, let clientIndex = world.clientIndex(named: event.observer) else { return [] }
            return render(renderer, info: info, client: clientIndex, world: world, event: event, index: index)
        default:
            return []
        }
    }

    public func finish(world: World) -> [Violation] {
        owed.keys.sorted().compactMap { key in
            owed[key].map { overdue($0, key: key, index: nil) }
        }
    }

    public static var keyReads: WorldReads { .clients }

    /// Metadata received and shown per pair and the observers told `disconnected`, each as its
    /// difference from what the observer's client holds (`CanonicalWriter.writeDifference`),
    /// and the pairs owed an update (VIS-1..4).
    /// A view keeps each remote's newest info, and for an announced remote the info its
    /// renderers were shown. In a run without a violation two differences remain: the newest
    /// info an older SDK received about an announced remote, which its view does not take
    /// (VIS-3; only runs with a token exchange have it), and a client that has not called
    /// `join()` yet, disconnected with its renderers told nothing (the world's script position
    /// says so, so it splits no world state). An owed update's event only words the report, so
    /// only the pair is written.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        if metadataMatchesViews(world) {
            writer.write(UInt32(0))
            writer.write(UInt32(0))
        } else {
            encodeMetadataDifferences(into: &writer, world: world)
        }
        writer.writeUnordered(disconnectedDifference(world)) { $0.writeName($1) }
        writer.writeUnordered(owed.keys) { $1.encode(into: &$0) }
    }

    /// Whether the metadata received and shown are exactly what the views hold (both
    /// differences empty, as in a run without a token exchange), found with no allocation.
    private func metadataMatchesViews(_ world: World) -> Bool {
        var remotes = 0
        var announced = 0
        for index in world.clients.indices {
            let name = world.clients[index].name
            for remote in world.clients[index].view.remotes {
                let key = ObserverParticipant(observer: name, participantId: remote.info.participantId)
                let metadata = VisibleMetadata(remote.info)
                guard received[key] == metadata else { return false }
                remotes += 1
                guard remote.announced else { continue }
                guard shown[key] == metadata else { return false }
                announced += 1
            }
        }
        return received.count == remotes && shown.count == announced
    }

    /// The metadata received and shown, each as its difference from the views.
    private func encodeMetadataDifferences(into writer: inout CanonicalWriter, world: World) {
        var viewInfo: [ObserverParticipant: VisibleMetadata] = [:]
        var announced: [ObserverParticipant: VisibleMetadata] = [:]
        for client in world.clients {
            for remote in client.view.remotes {
                let key = ObserverParticipant(observer: client.name, participantId: remote.info.participantId)
                viewInfo[key] = VisibleMetadata(remote.info)
                if remote.announced { announced[key] = viewInfo[key] }
            }
        }
        for (metadata, expected) in [(received, viewInfo), (shown, announced)] {
            writer.writeDifference(metadata, from: expected, key: { $1.encode(into: &$0) }, value: { $1.encode(into: &$0) })
        }
    }

    /// The observers told `disconnected` and the disconnected clients, in exactly one of the
    /// two (their symmetric difference, `CanonicalWriter.writeDifference`); empty without an
    /// allocation when they agree.
    private func disconnectedDifference(_ world: World) -> [String] {
        var differing: [String] = []
        for index in world.clients.indices where world.clients[index].view.local.connectionState == .disconnected {
            if !disconnected.contains(world.clients[index].name) { differing.append(world.clients[index].name) }
        }
        for name in disconnected {
            let client = world.clientIndex(named: name)
            if client.map({ world.clients[$0].view.local.connectionState != .disconnected }) ?? true { differing.append(name) }
        }
        return differing
    }

    private mutating func receive(_ message: WireMessage, observer: String, sdk: SDKKind, at event: TraceEvent) {
        var infos: [ParticipantInfo] = []
        switch message {
        case .joinAccepted(let snapshots, _): infos = snapshots.map(\.info)
        case .participantJoined(let info, _), .participantUpdated(let info): infos = [info]
        case .participantPublished(let snapshot): infos = [snapshot.info]
        case .participantLeft(let participantId):
            received[ObserverParticipant(observer: observer, participantId: participantId)] = nil
            return
        case .participantReconnected(let info) where sdk == .composition:
            // TOK-9: a composition lays out a reconnected participant with its info now.
            let key = ObserverParticipant(observer: observer, participantId: info.participantId)
            received[key] = VisibleMetadata(info)
            if shown[key] != nil { shown[key] = VisibleMetadata(info) }
            return
        default: return
        }
        for info in infos {
            let key = ObserverParticipant(observer: observer, participantId: info.participantId)
            let metadata = VisibleMetadata(info)
            received[key] = metadata
            if Self.rendersMetadataUpdates(sdk), let current = shown[key], current != metadata, message.carriesLiveUpdate {
                owed[key] = event
            }
        }
    }

    /// Updates owed to an observer must be rendered while handling the message that brought
    /// them: by the observer's next delivery, none may be left.
    private mutating func settle(observer: String, before event: TraceEvent, index: Int) -> [Violation] {
        guard !owed.isEmpty else { return [] }
        let keys = owed.keys.filter { $0.observer == observer }.sorted()
        return keys.compactMap { key in owed.removeValue(forKey: key).map { overdue($0, key: key, index: index) } }
    }

    /// The seed's table, read here and not from the model's `SDKKind.hasMetadataUpdateEvent`,
    /// so a wrong threshold in the model is a disagreement the monitor sees: only the mobile
    /// SDK from 1.37.0 on has participantMetadataDidUpdate (VIS-1).
    static func rendersMetadataUpdates(_ sdk: SDKKind) -> Bool {
        guard case .mobile(let version) = sdk else { return false }
        return (version.major, version.minor) >= (1, 37)
    }

    private func overdue(_ event: TraceEvent, key: ObserverParticipant, index: Int?) -> Violation {
        violation(event, index: index, "\(key.participantId)'s metadata update reached \(key.observer) (a mobile SDK >= 1.37.0) while announced, but no participantMetadataDidUpdate followed")
    }

    /// Judges what a renderer event shows of `info` to the observing client (at `client`).
    private mutating func render(_ renderer: RendererEvent, info: ParticipantInfo, client: Int, world: World, event: TraceEvent, index: Int) -> [Violation] {
        let sdk = world.clients[client].sdk
        let key = ObserverParticipant(observer: event.observer, participantId: info.participantId)
        let metadata = VisibleMetadata(info)
        let newest = received[key]
        switch renderer {
        case .participantDidJoin:
            shown[key] = metadata
            return newest.map { $0 == metadata } ?? true ? []
                : [violation(event, index: index, "participantDidJoin shows \(info.participantId) as \(metadata), but the newest metadata received is \(newest.map(\.description) ?? "-")")]
        case .participantMetadataDidUpdate:
            guard Self.rendersMetadataUpdates(sdk) else {
                return [violation(event, index: index, "participantMetadataDidUpdate reached a \(sdk) observer; only mobile >= 1.37.0 has it")]
            }
            guard let before = shown[key] else {
                return [violation(event, index: index, "participantMetadataDidUpdate for \(info.participantId), which is not announced")]
            }
            guard before != metadata else {
                return [violation(event, index: index, "participantMetadataDidUpdate for \(info.participantId) changes neither its userId nor its attributes (\(metadata)): the event is for updates of those")]
            }
            shown[key] = metadata
            if owed[key] != nil && newest == metadata { owed[key] = nil }
            return newest == metadata ? [] : [violation(event, index: index, "participantMetadataDidUpdate shows \(metadata), not the newest received \(newest.map(\.description) ?? "-")")]
        default:
            let expected = shown[key]
            if case .participantDidLeave = renderer {
                shown[key] = nil
                owed[key] = nil
            }
            let exempt = sdk == .composition && world.clients[client].config.composition.liveLayoutUpdates
            guard let expected, expected != metadata, !exempt else { return [] }
            return [violation(event, index: index, "\(renderer.name) shows \(info.participantId) as \(metadata), but this observer's renderers were shown \(expected) and may not see an update before the participant publishes again")]
        }
    }
}
