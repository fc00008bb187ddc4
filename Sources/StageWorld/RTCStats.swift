import Simulation
import StageCore

extension World {
    /// requestRTCStats for one stream (LST-5). For a stream an observer receives, computed from
    /// the simulated links of both ends: round trip, jitter and loss add up across the two
    /// links; the video layer is the one the observer's downlink carries among those the
    /// publisher's current publish sends (`Client.publishedVideo`, LST-4); audio reports
    /// peak and rms levels, silent while the stream is muted. For the observer's own published
    /// stream (`participant == observer`): its uplink's figures and every layer it sends, and
    /// only in a routed session (the seed: statistics for a stream published by the local
    /// client need the Media Router). Nil when there is no such stream.
    public func rtcStats(observer: String, participant: String, kind: MediaKind) -> [String: [String: String]]? {
        guard let observerIndex = clientIndex(named: observer), let publisherIndex = clientIndex(named: participant) else { return nil }
        if observerIndex == publisherIndex { return publishedStats(clientIndex: observerIndex, kind: kind) }
        guard let stream = clients[observerIndex].view[participant]?.addedStreams.first(where: { $0.kind == kind }) else { return nil }
        let down = config.links[observerIndex]
        let up = config.links[publisherIndex]
        let roundTrip = (down.latencyMean + up.latencyMean) * 2
        let delivered = (1 - down.lossProbability) * (1 - up.lossProbability)
        var inbound: [String: String] = [
            "kind": kind.rawValue,
            "roundTripTimeMs": String(roundTrip.milliseconds),
            "jitterMs": String((down.jitterMax + up.jitterMax).milliseconds / 2),
            "packetsLostRatio": String(1 - delivered),
        ]
        switch kind {
        case .video:
            let video = clients[publisherIndex].publishedVideo
            let layer = video.layer(forDownlinkBitsPerSecond: down.downlinkBitsPerSecond)
            inbound["layer"] = layer.name
            inbound["frameHeight"] = String(layer.heightPixels)
            inbound["bitrateBitsPerSecond"] = String(min(layer.bitrateBitsPerSecond, down.downlinkBitsPerSecond))
            inbound["framesPerSecond"] = String(video.targetFramerateFramesPerSecond)
        case .audio:
            inbound.merge(Self.audioLevels(muted: stream.isMuted, delivered: delivered)) { _, level in level }
        }
        return ["inbound-rtp-\(kind.rawValue)": inbound]
    }

    /// LST-5 with the seed's routed-mode condition: the stats of a stream this client publishes
    /// now, from its own uplink.
    private func publishedStats(clientIndex index: Int, kind: MediaKind) -> [String: [String: String]]? {
        let client = clients[index]
        guard client.config.mediaMode == .routed, client.view.local.publishState == .published,
              let stream = client.view.local.publishedStreams.first(where: { $0.kind == kind }) else { return nil }
        let up = config.links[index]
        var outbound: [String: String] = [
            "kind": kind.rawValue,
            "roundTripTimeMs": String((up.latencyMean * 2).milliseconds),
            "jitterMs": String(up.jitterMax.milliseconds / 2),
            "packetsLostRatio": String(up.lossProbability),
        ]
        switch kind {
        case .video:
            let video = client.publishedVideo
            let layers = video.layers
            outbound["layers"] = layers.map(\.name).joined(separator: ",")
            outbound["frameHeight"] = String(video.heightPixels)
            outbound["bitrateBitsPerSecond"] = String(layers.map(\.bitrateBitsPerSecond).reduce(0, +))
            outbound["framesPerSecond"] = String(video.targetFramerateFramesPerSecond)
        case .audio:
            outbound.merge(Self.audioLevels(muted: stream.isMuted, delivered: 1)) { _, level in level }
        }
        return ["outbound-rtp-\(kind.rawValue)": outbound]
    }

    /// Audio device stats (LST-5): peak and rms in dB, silent while muted, lower with loss.
    private static func audioLevels(muted: Bool, delivered: Double) -> [String: String] {
        [
            "peakDb": muted ? "-100.0" : String(-6.0 - 20 * (1 - delivered)),
            "rmsDb": muted ? "-100.0" : String(-18.0 - 20 * (1 - delivered)),
        ]
    }
}
