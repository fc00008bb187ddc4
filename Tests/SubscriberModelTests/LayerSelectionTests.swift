import Testing
import SubscriberModel

@Suite("Scalable video layer choice (SUB-8)")
struct LayerSelectionTests {
    let s = Fixture.second
    let layers = [Fixture.low, Fixture.midSlow, Fixture.mid, Fixture.high]

    private func choose(_ preferences: LayerPreferences = LayerPreferences(), bandwidth: UInt64? = nil) -> OpenTokStream.Layer? {
        LayerSelection.choose(from: layers, preferences: preferences, bandwidthBitsPerSecond: bandwidth)
    }

    @Test("SUB-8: no preferences and an unmeasured link -> the largest layer")
    func largestByDefault() {
        #expect(choose() == Fixture.high)
    }

    @Test("SUB-8: preferredResolution caps the layer; larger frame rate wins at equal size")
    func resolutionPreference() {
        #expect(choose(LayerPreferences(resolution: .init(width: 640, height: 360))) == Fixture.mid)
        #expect(choose(LayerPreferences(resolution: .init(width: 1000, height: 700))) == Fixture.mid)
        #expect(choose(LayerPreferences(resolution: .init(width: 320, height: 180))) == Fixture.low)
    }

    @Test("SUB-8: preferredFrameRate caps the layer")
    func frameRatePreference() {
        #expect(choose(LayerPreferences(frameRate: 15)) == Fixture.midSlow)
        #expect(choose(LayerPreferences(frameRate: 30)) == Fixture.high)
    }

    @Test("SUB-8: both preferences together")
    func bothPreferences() {
        #expect(choose(LayerPreferences(resolution: .init(width: 640, height: 360), frameRate: 20)) == Fixture.midSlow)
    }

    @Test("SUB-8: the link's bandwidth caps the layer")
    func bandwidthCaps() {
        #expect(choose(bandwidth: 1_500_000) == Fixture.high)
        #expect(choose(bandwidth: 1_499_999) == Fixture.mid)
        #expect(choose(bandwidth: 500_000) == Fixture.midSlow)
        #expect(choose(bandwidth: 150_000) == Fixture.low)
    }

    @Test("SUB-8: a link too thin for any candidate gets the cheapest one; preferences below every layer get the lowest")
    func fallbacks() {
        #expect(choose(bandwidth: 1) == Fixture.low)
        #expect(choose(LayerPreferences(resolution: .init(width: 10, height: 10))) == Fixture.low)
        #expect(choose(LayerPreferences(frameRate: 1)) == Fixture.low)
        #expect(LayerSelection.choose(from: [], preferences: LayerPreferences(), bandwidthBitsPerSecond: nil) == nil)
    }

    @Test("SUB-8: receivedLayer follows preferences and measured bandwidth, with layer-changed events while connected")
    func subscriberFollowsChoice() {
        var state = SubscriberState(stream: Fixture.stream(layers: layers))
        state.subscribe(at: 0)
        #expect(state.setPreferredResolution(width: 640, height: 360) == [])
        #expect(state.mediaStarted(at: s) == [.subscriberDidConnectToStream, .subscriberVideoLayerChanged(Fixture.mid)])
        #expect(state.receivedLayer == Fixture.mid)
        #expect(state.setPreferredFrameRate(15) == [.subscriberVideoLayerChanged(Fixture.midSlow)])
        #expect(state.setPreferredResolution(width: 0, height: 0) == [])  // 15 fps cap still picks midSlow
        #expect(state.preferences.resolution == nil)
        #expect(state.setPreferredFrameRate(0) == [.subscriberVideoLayerChanged(Fixture.high)])
        #expect(state.linkQuality(bandwidthBitsPerSecond: 700_000, lossRatio: 0, at: 2 * s)
            == [.subscriberVideoLayerChanged(Fixture.mid)])
        #expect(state.linkQuality(bandwidthBitsPerSecond: 800_000, lossRatio: 0, at: 3 * s) == [])
        #expect(state.bandwidthBitsPerSecond == 800_000)
    }

    @Test("SUB-8: a layer change while reconnecting is reported after the reconnect")
    func layerAfterReconnect() {
        var state = Fixture.connected(stream: Fixture.stream(layers: layers))
        state.mediaDropped(at: 2 * s)
        #expect(state.setPreferredResolution(width: 320, height: 180) == [])
        #expect(state.mediaRestored(at: 3 * s) == [.subscriberDidReconnectToStream, .subscriberVideoLayerChanged(Fixture.low)])
    }

    @Test("SUB-8: a relayed session has no Media Router to pick layers: the largest is received")
    func relayedGetsLargest() {
        var state = Fixture.connected(stream: Fixture.stream(layers: layers), mode: .relayed)
        state.setPreferredResolution(width: 320, height: 180)
        state.linkQuality(bandwidthBitsPerSecond: 1, lossRatio: 0, at: 2 * s)
        #expect(state.receivedLayer == Fixture.high)
    }

    @Test("SUB-8: a stream without layers has no received layer and no layer events")
    func notScalable() {
        var state = SubscriberState(stream: Fixture.stream())
        state.subscribe(at: 0)
        #expect(state.mediaStarted(at: s) == [.subscriberDidConnectToStream])
        #expect(state.receivedLayer == nil)
    }

    @Test("SUB-8: nonsense preferences are ignored and reported")
    func nonsensePreferences() {
        var state = Fixture.connected(stream: Fixture.stream(layers: layers))
        #expect(state.setPreferredResolution(width: -1, height: 360) == [])
        #expect(state.lastIgnored != nil)
        #expect(state.setPreferredResolution(width: 640, height: 0) == [])
        #expect(state.lastIgnored != nil)
        #expect(state.setPreferredFrameRate(.nan) == [])
        #expect(state.lastIgnored != nil)
        #expect(state.setPreferredFrameRate(-5) == [])
        #expect(state.setPreferredFrameRate(.infinity) == [])
        #expect(state.preferences == LayerPreferences())
        #expect(state.receivedLayer == Fixture.high)
    }
}
