import Simulation
import StageCore
import StageWorld

/// STR-6, RND-5: a subscription change the SDK makes is the change it asks the service for.
/// audioVideo -> audioOnly removes only the video: the SDK goes on subscribing to the audio
/// (its request carries audioOnly, not an unsubscribe), so its renderers never hold a stream
/// the service was last asked not to send. Each subscription request the service receives
/// from a client (`subscribe` with a type, or `unsubscribe`, which asks for nothing) is judged
/// against that client's renderers at that moment: they hold no stream of that publisher of a
/// kind the request leaves out. A client adds streams only once a request is accepted, after
/// the service received it, and removes them before it asks for less, so a request arriving
/// never asks for less than the renderers hold, unless the client has asked again since (a
/// later request for that publisher still on its way): the SDK adds streams when the service
/// accepts any request, for the subscription it wants then. The kinds a subscription type
/// carries are stated here, not read from the model's `SubscribeType.allows`.
public struct SubscriptionRequestMonitor: InvariantMonitor {
    public var name: String { "subscription-requests-cover-held-streams" }
    public var summary: String { "a subscription request the service receives never leaves out a stream the requesting client's renderers hold (audioOnly keeps the audio)" }
    public var rules: [String] { ["STR-6", "RND-5"] }

    public init() {}

    public func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard event.observer == "server", case .delivered(let message, _) = event.kind, let peer = event.peer else { return [] }
        let publisherId: String
        let asked: [MediaKind]
        switch message {
        case .subscribe(let publisher, let type):
            publisherId = publisher
            asked = Self.kinds(type)
        case .unsubscribe(let publisher):
            publisherId = publisher
            asked = []
        default:
            return []
        }
        guard let client = world.clientIndex(named: peer), let remote = world.clients[client].view[publisherId] else { return [] }
        let left = remote.addedStreams.map(\.kind).filter { !asked.contains($0) }
        guard !left.isEmpty, !Self.asksAgain(world, client: client, publisherId: publisherId) else { return [] }
        let request = asked.isEmpty ? "unsubscribe" : "subscribe " + asked.map(\.rawValue).joined(separator: "+")
        return [violation(event, index: index, "the service received \(peer)'s \(request) for \(publisherId), but \(peer)'s renderers hold its \(left.map(\.rawValue).joined(separator: " and ")) stream")]
    }

    /// Whether `client` has another subscription request for `publisherId` on its way to the
    /// service (in flight, or held for order): it has asked again since the request the
    /// service is handling, and the service's acceptance of an earlier one may already have
    /// added the streams the later one asks for.
    static func asksAgain(_ world: World, client: Int, publisherId: String) -> Bool {
        func isRequest(_ envelope: Envelope) -> Bool {
            guard envelope.to == .server, envelope.clientIndex == client, case .success(let message) = envelope.decoded() else { return false }
            switch message {
            case .subscribe(let publisher, _), .unsubscribe(let publisher): return publisher == publisherId
            default: return false
            }
        }
        if world.network.directions[client * 2 + 1].held.contains(where: isRequest) { return true }
        return world.pending.entries.contains { entry in
            if case .delivery(let envelope) = entry.payload { return isRequest(envelope) }
            return false
        }
    }

    /// The stream kinds a subscription carries (STR-1, STR-6): none, audio, or audio and video.
    static func kinds(_ type: SubscribeType) -> [MediaKind] {
        switch type {
        case .none: []
        case .audioOnly: [.audio]
        case .audioVideo: [.audio, .video]
        }
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: each verdict reads only the event and the world after its step.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}
