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
public struct PublishedMuteMonitor: InvariantMonitor {
    public var name: String { "published-mutes-follow-the-strategy" }
    public var summary: String { "whenever a connected client's link is idle, each stream the stage holds it publishing has the mute state of the stream the strategy returned (setMuted applied)" }
    public var rules: [String] { ["LST-1", "LST-2", "STR-5"] }
    /// Per client name: the streams the strategy last returned, with later mutes applied.
    private var answered: [String: [LocalStream]] = [:]
    /// Names of the clients the current step involved; emptied at its end.
    private var involved = StepNames()
    /// Names of the clients that were handed an injected frame (not judged from then on).
    private var heardInjectedFrames: Set<String> = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        involved.insert(event.observer)
        if let peer = event.peer { involved.insert(peer) }
        if event.peer == TraceEvent.injectedSender { heardInjectedFrames.insert(event.observer) }
        switch event.kind {
        case .strategyQueried(let report):
            if let returned = report.streamsReturned { answered[event.observer] = returned }
        case .hostCall(.setMuted(let kind, let muted)):
            guard var streams = answered[event.observer] else { break }
            for position in streams.indices where streams[position].kind == kind { streams[position].isMuted = muted }
            answered[event.observer] = streams
        default:
            break
        }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        defer { involved.removeAll() }
        var found: [Violation] = []
        for observer in involved.sorted() where heardInjectedFrames.isEmpty || !heardInjectedFrames.contains(observer) {
            guard let streams = answered[observer], let index = world.clientIndex(named: observer),
                  world.clients[index].view.local.connectionState == .connected,
                  world.server.holdsConnection(clientIndex: index, epoch: world.clients[index].epoch),
                  !world.hasFramesInFlight(onLinkOf: index),
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
    /// and the clients no longer judged.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        let clients = world.clients
        let differing = clients.indices.filter { client in (answered[clients[client].name] ?? []) != clients[client].view.local.streams }
        writer.writeUnordered(differing) { writer, client in
            writer.writeName(clients[client].name)
            for stream in answered[clients[client].name] ?? [] {
                writer.write(stream.kind.rawValue)
                writer.write(stream.instance)
                writer.write(stream.isMuted)
            }
        }
        writer.writeUnordered(heardInjectedFrames) { writer, name in writer.writeName(name) }
    }
}
