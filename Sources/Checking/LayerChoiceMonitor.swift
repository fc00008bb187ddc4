import Simulation
import StageCore
import StageWorld
import SubscriberModel

/// SUB-8: `preferredFrameRate` and `preferredResolution` pick the scalable-video layer a
/// subscriber receives. Each layer a subscriber is told it now receives
/// (`subscriberVideoLayerChanged`) is the Media Router's documented choice for the stream's
/// layers, the subscriber's preferences and its last measured bandwidth: in a routed session,
/// the largest layer (pixels, then frame rate, then bitrate) within the preferences (a frame
/// rate at most the preferred one, a width and a height each at most the preferred ones) that
/// the bandwidth carries, the lowest layer standing in when none is within them and the
/// cheapest candidate when the link carries none; in a relayed session, the largest layer.
/// The choice is computed here, not by the model's `LayerSelection`; it is checked at each
/// announcement and, for a subscriber with a preference, at the end of every step.
public struct LayerChoiceMonitor: InvariantMonitor {
    public var name: String { "received-layer-follows-preferences" }
    public var summary: String { "the layer a subscriber is told it receives is the largest within its preferences that its bandwidth carries" }
    public var rules: [String] { ["SUB-8"] }

    public init() {}

    public func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        guard case .subscriber(let told) = event.kind, case .subscriberVideoLayerChanged(let layer?) = told.event,
              let client = world.clientIndex(named: event.observer),
              let slot = world.clients[client].subscribers.firstIndex(where: { $0.publisherId == told.publisherId }) else { return [] }
        guard let message = Self.disagreement(told: layer, world.clients[client], slot) else { return [] }
        return [violation(event, index: index, message)]
    }

    /// A subscriber whose app set a preference keeps receiving the chosen layer: at the end of
    /// every step, the layer it was last told (`announcedLayer`) is the choice for its
    /// preferences and bandwidth now, while its media flows with video asked for, so a
    /// preference that should have changed the layer and told nothing is caught too. The
    /// verdict reads only the subscriber's own client, so only the clients changed since the
    /// last step with events are looked at (`World.changesSinceTrace`): any other stands where
    /// the last look left it.
    public func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        var found: [Violation] = []
        for client in world.changesSinceTrace.clients.sorted() {
            let subscribers = world.clients[client].subscribers
            for slot in subscribers.indices where subscribers[slot].state.preferences != LayerPreferences() {
                let state = subscribers[slot].state
                guard state.phase == .connected, state.subscribeToVideo, let told = state.announcedLayer,
                      let message = Self.disagreement(told: told, world.clients[client], slot) else { continue }
                found.append(Violation(invariant: name, rules: rules, time: time, observer: world.clients[client].name, eventIndex: lastEventIndex, message: message))
            }
        }
        return found
    }

    /// How the layer `told` to the subscriber in `slot` of `client` differs from the choice for
    /// its stream, preferences and bandwidth, in words; nil when it is that choice.
    private static func disagreement(told layer: OpenTokStream.Layer, _ client: Client, _ slot: Int) -> String? {
        let state = client.subscribers[slot].state
        let expected = client.config.mediaMode == .routed
            ? choice(state.stream.layers, state.preferences, bandwidth: state.bandwidthBitsPerSecond)
            : state.stream.layers.max { rank($0) < rank($1) }
        guard layer != expected else { return nil }
        let bandwidth = state.bandwidthBitsPerSecond.map { "\($0) bps" } ?? "unknown bandwidth"
        return "\(state.stream.streamId) was told it receives \(layer), but the layer for \(state.preferences) at \(bandwidth) is \(expected.map { "\($0)" } ?? "none")"
    }

    /// The routed choice: the largest layer within the preferences that the bandwidth carries.
    static func choice(_ layers: [OpenTokStream.Layer], _ preferences: LayerPreferences, bandwidth: UInt64?) -> OpenTokStream.Layer? {
        guard let lowest = layers.min(by: { rank($0) < rank($1) }) else { return nil }
        let within = layers.filter { layer in
            (preferences.frameRate.map { layer.framesPerSecond <= $0 } ?? true)
                && (preferences.resolution.map { layer.width <= $0.width && layer.height <= $0.height } ?? true)
        }
        let pool = within.isEmpty ? [lowest] : within
        if let best = pool.filter({ layer in bandwidth.map { layer.bitsPerSecond <= $0 } ?? true }).max(by: { rank($0) < rank($1) }) {
            return best
        }
        return pool.min { $0.bitsPerSecond != $1.bitsPerSecond ? $0.bitsPerSecond < $1.bitsPerSecond : rank($0) < rank($1) }
    }

    /// Larger means more pixels, then a higher frame rate, then a higher bitrate.
    /// Pixels as a `Double`: a frame's layer sizes come from the wire and may be huge (SIG-8).
    private static func rank(_ layer: OpenTokStream.Layer) -> (Double, Double, UInt64) {
        (Double(layer.width) * Double(layer.height), layer.framesPerSecond, layer.bitsPerSecond)
    }

    /// Stateless: each verdict reads only the event and the subscriber it names.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}

    public static var keyReads: WorldReads { [] }
}
