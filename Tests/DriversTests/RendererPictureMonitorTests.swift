import Checking
import Drivers
import Scenario
import Simulation
import StageCore
@testable import StageWorld
import Testing

/// RendererPictureMonitor (RND-5, RND-6, STR-6, STG-3): the renderers' picture, painted from
/// renderer events, must equal the SDK's view after every step; removals need a cause; an
/// abandoned publish attempt ends CANCELED. The violating traces are hand-made on the world a
/// real run left, where a viewer is subscribed to a publisher's audio and video.
@Suite("RendererPictureMonitor (RND-5, RND-6, STR-6, STG-3)")
struct RendererPictureMonitorTests {
    /// The world a short run leaves: the viewer connected and subscribed to the publisher's
    /// audio and video. (Every bundled scenario and fuzz run checks the monitor on real traces.)
    static func subscribedWorld() throws -> World {
        try subscribedPairWorld()
    }

    static func run(_ steps: [[TraceEvent]], on world: World) -> [Violation] {
        var monitors = MonitorSet([RendererPictureMonitor()])
        for step in steps { monitors.observe(step, world: world) }
        return monitors.violations
    }

    static func renderer(_ observer: String, _ event: RendererEvent, at milliseconds: UInt64 = 6_000) -> TraceEvent {
        TraceEvent(time: .milliseconds(milliseconds), observer: observer, kind: .renderer(event))
    }

    /// The events that paint the viewer's picture of the world `subscribedWorld` leaves.
    static func viewerPicture(_ world: World) throws -> [TraceEvent] {
        let viewer = try #require(world.clientIndex(named: "viewer"))
        let view = world.clients[viewer].view
        let remote = try #require(view.remotes.first)
        return [
            renderer("viewer", .connectionStateChanged(.connected, nil)),
            renderer("viewer", .participantDidJoin(remote.info)),
            renderer("viewer", .subscribeStateChanged(remote.info, .subscribed, nil)),
            renderer("viewer", .didAddStreams(remote.info, remote.addedStreams)),
        ]
    }

    @Test("a view the renderers were told, step by step, agrees")
    func toldPictureAgrees() throws {
        let world = try Self.subscribedWorld()
        let remote = try #require(world.clients[world.clientIndex(named: "viewer")!].view.remotes.first)
        #expect(remote.addedStreams.count == 2 && remote.subscribeState == .subscribed)
        #expect(Self.run([try Self.viewerPicture(world)], on: world).isEmpty)
    }

    /// The monitor's state key on `world` after it watched `steps` on `watched`.
    static func key(after steps: [[TraceEvent]], on watched: World, keyedOn world: World) -> [UInt8] {
        var monitors = MonitorSet([RendererPictureMonitor()])
        for step in steps { monitors.observe(step, world: watched) }
        var writer = CanonicalWriter()
        monitors.encodeState(into: &writer, world: world)
        return writer.bytes
    }

    @Test("the state key holds the clients whose picture differs from the view, also when the view was written after the picture last agreed")
    func keyFollowsViewWrites() throws {
        let world = try Self.subscribedWorld()
        let told = try Self.viewerPicture(world)
        let agreeing = Self.key(after: [told], on: world, keyedOn: world)
        var changed = world
        let viewer = try #require(world.clientIndex(named: "viewer"))
        changed.clients[viewer].view.local.connectionState = .disconnected
        let afterWrite = Self.key(after: [told], on: world, keyedOn: changed)
        let name = Array("viewer".utf8)
        func names(_ key: [UInt8]) -> Bool { key.indices.contains { key[$0...].starts(with: name) } }
        #expect(!names(agreeing), "a picture that agrees is left out of the key")
        #expect(names(afterWrite), "a view written after the picture agreed must be compared again")
    }

    @Test("a client whose SDK changed without telling its renderers is caught at the end of the step (an unmute never reported, RND-6)")
    func silentChangeIsCaught() throws {
        let world = try Self.subscribedWorld()
        var told = try Self.viewerPicture(world)
        let remote = world.clients[world.clientIndex(named: "viewer")!].view.remotes[0]
        told[3] = Self.renderer("viewer", .didAddStreams(remote.info, remote.addedStreams.map { StageStream(participantId: $0.participantId, kind: $0.kind, isMuted: true) }))
        let violations = Self.run([told], on: world)
        #expect(violations.map(\.invariant) == ["renderers-told-every-change"])
        #expect(violations.first?.message.contains("audio (muted)") == true, "\(violations)")
    }

    @Test("removing the audio of a publisher the subscription still allows has no cause (STR-6 removes only video)")
    func removalWithoutCause() throws {
        let world = try Self.subscribedWorld()
        let remote = world.clients[world.clientIndex(named: "viewer")!].view.remotes[0]
        let audio = try #require(remote.addedStreams.first { $0.kind == .audio })
        let violations = Self.run([try Self.viewerPicture(world), [Self.renderer("viewer", .didRemoveStreams(remote.info, [audio]))]], on: world)
        #expect(violations.contains { $0.message.contains("didRemoveStreams took audio of \(remote.info.participantId) away") }, "\(violations)")
    }

    @Test("a publish attempt abandoned on a live connection must end CANCELED (STG-3)")
    func abandonedPublishEndsCanceled() throws {
        let world = try Self.subscribedWorld()
        let local = world.clients[world.clientIndex(named: "viewer")!].view.local.info
        let attempt = Self.renderer("viewer", .publishStateChanged(local, .attemptingPublish, nil))
        let canceled = StageError(code: .canceled, category: .publish, isFatal: false)
        for (error, expectViolation) in [(nil, true), (canceled, false)] as [(StageError?, Bool)] {
            let violations = Self.run([try Self.viewerPicture(world) + [attempt], [Self.renderer("viewer", .publishStateChanged(local, .notPublished, error))]], on: world)
            #expect(violations.contains { $0.message.contains("not CANCELED") } == expectViolation, "\(violations)")
        }
    }
}
