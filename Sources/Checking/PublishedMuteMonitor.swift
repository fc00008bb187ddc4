import Simulation
import StageCore
import StageWorld

/// LST-1, LST-2, STR-5: what the stage holds as a participant's published mute states is the
/// strategy's answer. The streams streamsToPublish last returned (`StrategyQueryReport
/// .streamsReturned`, the answer itself), with every `setMuted` host call made since applied
/// to the streams of its kind, are what the participant means to publish; whenever nothing is
/// in flight between a connected client and the stage service, each stream the service holds
/// it publishing has the mute state of the returned stream of its kind. The monitor keeps the
/// answers from the trace, not from the SDK's view (`StageView.local.streams`), so an SDK that
/// does not adopt a returned stream (a new instance with its own mute state, LST-2) is caught.
///
/// LST-1 on the strategy's side: `setMuted` changes the host's stream object whether or not the
/// strategy has returned it, so streamsToPublish answers with the streams the script declared
/// (the client's configured strategy, then each `setStrategy`), each `setMuted` since applied
/// to the streams of its kind. The monitor keeps that copy from the host calls; an answer with
/// the same streams (kinds and instances) in other mute states is a violation. An answer with
/// other streams comes from a host strategy object (the Swift API) and is not judged.
public struct PublishedMuteMonitor: InvariantMonitor {
    public var name: String { "published-mutes-follow-the-strategy" }
    public var summary: String { "whenever a connected client's link is idle, each stream the stage holds it publishing has the mute state of the stream the strategy returned (setMuted applied)" }
    public var rules: [String] { ["LST-1", "LST-2", "STR-5"] }
    /// Per client: the streams the strategy last returned, with later mutes applied.
    private var answered = ClientIndexed<[LocalStream]>()
    /// Names of the clients the current step involved; emptied at its end.
    private var involved = StepNames()
    /// Names of the clients that were handed an injected frame (not judged from then on).
    private var heardInjectedFrames: Set<String> = []
    /// Per client: the streams its declared strategy returns, with `setMuted` calls applied;
    /// a client with no entry returns its configured strategy's streams.
    private var declared = ClientIndexed<[LocalStream]>()

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        involved.insert(event.observer)
        if let peer = event.peer { involved.insert(peer) }
        if event.peer == TraceEvent.injectedSender { heardInjectedFrames.insert(event.observer) }
        switch event.kind {
        case .strategyQueried(let report):
            guard let returned = report.streamsReturned, let client = world.clientIndex(named: event.observer) else { break }
            answered[client] = returned
            return declaredMismatch(returned, of: client, event, index: index, world: world)
        case .hostCall(.setStrategy(let spec)):
            guard let client = world.clientIndex(named: event.observer) else { break }
            declared[client] = spec.streams
        case .hostCall(.setMuted(let kind, let muted)):
            guard let client = world.clientIndex(named: event.observer) else { break }
            var streams = declaredStreams(of: client, world: world)
            for position in streams.indices where streams[position].kind == kind { streams[position].isMuted = muted }
            declared[client] = streams
            guard var streams = answered[client] else { break }
            for position in streams.indices where streams[position].kind == kind { streams[position].isMuted = muted }
            answered[client] = streams
        default:
            break
        }
        return []
    }

    /// The streams client `client`'s declared strategy returns now.
    private func declaredStreams(of client: Int, world: World) -> [LocalStream] {
        declared[client] ?? world.clients[client].configuredStrategy.streams
    }

    /// LST-1: an answer with the declared streams must carry their mute states.
    private func declaredMismatch(_ returned: [LocalStream], of client: Int, _ event: TraceEvent, index: Int, world: World) -> [Violation] {
        let wanted = declaredStreams(of: client, world: world)
        guard returned != wanted,
              returned.map(\.kind) == wanted.map(\.kind), returned.map(\.instance) == wanted.map(\.instance) else { return [] }
        return [violation(event, index: index, "streamsToPublish returned \(returned), but the host's streams, with its setMuted calls, are \(wanted)")]
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        defer { involved.removeAll() }
        var found: [Violation] = []
        for observer in involved.sorted() where heardInjectedFrames.isEmpty || !heardInjectedFrames.contains(observer) {
            // The cheap conditions on the client first; the kept answer is hashed last.
            guard let index = world.clientIndex(named: observer),
                  world.clients[index].view.local.connectionState == .connected,
                  world.server.holdsConnection(clientIndex: index, epoch: world.clients[index].epoch),
                  !world.hasFramesInFlight(onLinkOf: index),
                  let streams = answered[index],
                  let participant = world.server.participants.first(where: { $0.clientIndex == index }) else { continue }
            for published in participant.publishedStreams {
                guard let wanted = streams.first(where: { $0.kind == published.kind }), wanted.isMuted != published.isMuted else { continue }
                found.append(Violation(
                    invariant: name, rules: rules, time: time, observer: observer, eventIndex: lastEventIndex,
                    message: "nothing in flight on its link, yet the stage holds its \(published.kind.rawValue) \(published.isMuted ? "muted" : "unmuted") while the strategy returned \(wanted)"
                ))
            }
        }
        return found
    }

    /// The clients whose kept answer differs from the streams their SDK holds (none in a run
    /// without a violation: the SDK adopts every answer and every mute), each with the answer,
    /// the clients no longer judged, and the clients whose declared streams differ from the
    /// strategy they hold (none without a violation), each with its declared streams.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        let clients = world.clients
        let differing = clients.indices.filter { client in (answered[client] ?? []) != clients[client].view.local.streams }
        writer.writeUnordered(differing) { writer, client in
            writer.writeName(clients[client].name)
            for stream in answered[client] ?? [] {
                writer.write(stream.kind.rawValue)
                writer.write(stream.instance)
                writer.write(stream.isMuted)
            }
        }
        writer.writeUnordered(heardInjectedFrames) { writer, name in writer.writeName(name) }
        // The declared streams differ from the strategy the client holds only after a bug.
        var undeclared: [(name: String, streams: [LocalStream])] = []
        for client in clients.indices {
            let streams = declaredStreams(of: client, world: world)
            if streams != clients[client].strategy.streams { undeclared.append((clients[client].name, streams)) }
        }
        writer.writeUnordered(undeclared) { writer, entry in
            writer.writeName(entry.name)
            for stream in entry.streams {
                writer.write(stream.kind.rawValue)
                writer.write(stream.instance)
                writer.write(stream.isMuted)
            }
        }
    }
}
