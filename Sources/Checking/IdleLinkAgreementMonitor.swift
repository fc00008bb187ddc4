import Simulation
import StageCore
import StageWorld

/// NET-3, STR-2, STR-4, RND-4/5, TOK-7, VIS-1 checked at every step, not only at the end of a
/// quiet run: a connected client whose connection the stage service holds open, with nothing
/// in flight on its link in either direction, has heard everything the service did and the
/// service has heard everything it did, so its view must agree with the service's record
/// (`ViewAgreement`) right then. A client is judged
/// at the end of a step that involved it (it observed an event, or a frame of its reached the
/// service), when its link has just fallen idle. A client that was handed a frame the service
/// never sent (an injected one, SIG-8) may believe what the service does not hold, so it is
/// not judged from then on.
public struct IdleLinkAgreementMonitor: InvariantMonitor {
    public var name: String { "idle-link-views-agree" }
    public var summary: String { "whenever nothing is in flight between a connected client and the stage service, its view equals the service's record" }
    public var rules: [String] { ["NET-3", "STR-2", "STR-4", "RND-4", "RND-5", "TOK-7", "VIS-1"] }
    /// Names of the clients the current step involved; emptied at its end.
    private var involved = StepNames()
    /// Names of the clients that were handed an injected frame.
    private var heardInjectedFrames: Set<String> = []

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        involved.insert(event.observer)
        if event.peer == TraceEvent.injectedSender { heardInjectedFrames.insert(event.observer) }
        if let peer = event.peer { involved.insert(peer) }
        return []
    }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        defer { involved.removeAll() }
        var found: [Violation] = []
        for index in candidates(world) where !world.hasFramesInFlight(onLinkOf: index) {
            let differences = ViewAgreement.differences(clientIndex: index, world: world)
            guard !differences.isEmpty else { continue }
            let observer = world.clients[index].name
            found += differences.map {
                Violation(invariant: name, rules: rules, time: time, observer: observer, eventIndex: lastEventIndex, message: "nothing in flight on its link, yet \($0)")
            }
        }
        return found
    }

    /// The clients the step involved that are judged, in index order: connected, on a
    /// connection the service holds open, never handed an injected frame. Read in place, no
    /// client copied.
    private func candidates(_ world: World) -> [Int] {
        var found: [Int] = []
        for observer in involved where heardInjectedFrames.isEmpty || !heardInjectedFrames.contains(observer) {
            guard let index = world.clientIndex(named: observer), world.clients[index].view.local.connectionState == .connected,
                  world.server.holdsConnection(clientIndex: index, epoch: world.clients[index].epoch) else { continue }
            found.append(index)
        }
        return found.count < 2 ? found : found.sorted()
    }

    public static var keyReads: WorldReads { [] }

    /// The clients it no longer judges; between steps it holds nothing else.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.writeUnordered(heardInjectedFrames) { writer, name in writer.writeName(name) }
    }
}
