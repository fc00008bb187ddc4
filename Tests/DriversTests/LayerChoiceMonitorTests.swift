import Checking
import Scenario
import Simulation
import StageCore
@testable import SubscriberModel
import Testing
@testable import StageWorld

/// LayerChoiceMonitor (SUB-8): the layer a subscriber is told it receives is the largest
/// within its preferences that its bandwidth carries. Made by hand on the subscribed pair
/// ("viewer" receiving "pub"'s two layers, 360x640 and 720x1280 at 30 fps).
@Suite("LayerChoiceMonitor (SUB-8)")
struct LayerChoiceMonitorTests {
    static func told(_ layer: OpenTokStream.Layer) -> TraceEvent {
        let event = SubscriberTraceEvent(publisherId: "pub", streamId: "pub-1", event: .subscriberVideoLayerChanged(layer), subscriber: 1)
        return TraceEvent(time: .seconds(5), observer: "viewer", kind: .subscriber(event))
    }

    /// The pair's world with the viewer's bandwidth unknown (every layer carried), and its layers, smallest first.
    static func world() throws -> (World, [OpenTokStream.Layer]) {
        var world = try subscribedPairWorld()
        let viewer = try #require(world.clientIndex(named: "viewer"))
        world.clients[viewer].subscribers[0].state.bandwidthBitsPerSecond = nil
        let layers = world.clients[viewer].subscribers[0].state.stream.layers.sorted { $0.height < $1.height }
        try #require(layers.count == 2 && layers[0].framesPerSecond == 30 && layers[1].framesPerSecond == 30)
        return (world, layers)
    }

    @Test("a smaller layer than the choice is reported; the choice itself, or the small one at a lower preferred size, passes")
    func announcedLayer() throws {
        var (world, layers) = try Self.world()
        let monitor = LayerChoiceMonitor()
        #expect(monitor.observe(Self.told(layers[0]), index: 0, world: world).count == 1)
        #expect(monitor.observe(Self.told(layers[1]), index: 0, world: world).isEmpty)
        let viewer = try #require(world.clientIndex(named: "viewer"))
        world.clients[viewer].subscribers[0].state.preferences = LayerPreferences(resolution: .init(width: 720, height: 1000))
        #expect(monitor.observe(Self.told(layers[0]), index: 0, world: world).isEmpty, "one dimension of the large layer exceeds the preference")
        world.clients[viewer].subscribers[0].state.preferences = LayerPreferences(frameRate: 30)
        #expect(monitor.observe(Self.told(layers[1]), index: 0, world: world).isEmpty, "a layer at exactly the preferred frame rate is within it")
    }

    @Test("a subscriber with a preference left on a layer the preference rules out is reported at the end of the step")
    func staleLayer() throws {
        var (world, layers) = try Self.world()
        let viewer = try #require(world.clientIndex(named: "viewer"))
        world.clients[viewer].subscribers[0].state.preferences = LayerPreferences(resolution: .init(width: 400, height: 1280))
        world.clients[viewer].subscribers[0].state.announcedLayer = layers[1]
        // The viewer changed by hand: recorded as `apply` records a change (`World.changesSinceTrace`).
        var change = ChangeRecord()
        change.insert(client: viewer)
        world.untraced.add(change, traced: true)
        #expect(LayerChoiceMonitor().endOfStep(world: world, lastEventIndex: 0, time: .zero).count == 1)
        world.clients[viewer].subscribers[0].state.announcedLayer = layers[0]
        #expect(LayerChoiceMonitor().endOfStep(world: world, lastEventIndex: 0, time: .zero).isEmpty)
    }

    @Test("the bundled SUB-8 scenarios pass, and the monitor sees layer announcements", arguments: ["sub-6-8-publisher-properties-and-layers", "lst-4-simulcast-layers"])
    func bundledScenarios(_ name: String) throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/\(name).yaml")
        var announcements = 0
        let violations = monitoredRun(of: scenario, with: LayerChoiceMonitor()) { events in
            announcements += events.filter { if case .subscriber(let told) = $0.kind, case .subscriberVideoLayerChanged = told.event { true } else { false } }.count
        }.violations
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        #expect(announcements > 0)
    }
}
