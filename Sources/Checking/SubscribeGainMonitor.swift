import Simulation
import StageCore
import StageWorld

/// TOK-8 (assumed): "subscribe capability gained: shouldSubscribe is queried for every known
/// remote publisher". When an accepted exchange gives subscribing to a connected client that
/// could not subscribe, the subscription it holds for each remote it knows to publish is, after
/// that step, the answer its declared strategy (`Client.strategy`, what the script set) gives
/// for that remote now, not an answer kept from before: a strategy changed since without a
/// refresh must be asked again. The capability before the exchange is the monitor's own record
/// of the SDK's, taken after each join's acceptance and each accepted exchange.
public struct SubscribeGainMonitor: InvariantMonitor {
    public var name: String { "subscribe-gain-asks-the-strategy" }
    public var summary: String { "an exchange that grants subscribing leaves each known publisher subscribed as the strategy answers now" }
    public var rules: [String] { ["TOK-8"] }
    /// Per client: whether its token allowed subscribing, as of its last join acceptance or
    /// accepted exchange.
    private var canSubscribe = ClientIndexed<Bool>()

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        switch event.kind {
        case .delivered(.joinAccepted, _):
            guard let client = world.clientIndex(named: event.observer) else { return [] }
            canSubscribe[client] = world.clients[client].view.local.info.capabilities.canSubscribe
            return []
        case .delivered(.exchangeAccepted(let info), _):
            guard let client = world.clientIndex(named: event.observer),
                  world.clients[client].view.local.connectionState == .connected else { return [] }
            let before = canSubscribe[client]
            let now = world.clients[client].view.local.info.capabilities.canSubscribe
            canSubscribe[client] = now
            // An acceptance the SDK did not take (no exchange of its own was waiting for it, an
            // injected frame, SIG-8) grants nothing.
            guard before == false && now && info.capabilities.canSubscribe else { return [] }
            return Self.unasked(world.clients[client]).map { violation(event, index: index, $0) }
        default:
            return []
        }
    }

    /// For each remote the client knows to publish whose subscription is not the strategy's
    /// answer now, what differs.
    static func unasked(_ client: Client) -> [String] {
        client.view.remotes.compactMap { remote in
            guard remote.isPublishing else { return nil }
            let answer = client.strategy.shouldSubscribe(to: remote.info)
            guard remote.requested != answer else { return nil }
            return "subscribing was granted, and the strategy now answers \(answer.rawValue) for \(remote.info.participantId), but the SDK asks for \(remote.requested.rawValue)"
        }
    }

    public static var keyReads: WorldReads { .clients }

    /// The connected clients whose record differs from their SDK's own capability, each with
    /// the record (none once a client's join was seen: the record follows the SDK's at each join
    /// and accepted exchange; a client with no record yet is judged at no gain).
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        let clients = world.clients
        var differing: [(name: String, record: UInt32)] = []
        for client in clients.indices where clients[client].view.local.connectionState == .connected {
            let record = canSubscribe[client]
            guard record != clients[client].view.local.info.capabilities.canSubscribe else { continue }
            differing.append((clients[client].name, record.map { $0 ? 1 : 0 } ?? 2))
        }
        writer.writeUnordered(differing) { writer, entry in
            writer.writeName(entry.name)
            writer.write(entry.record)
        }
    }
}
