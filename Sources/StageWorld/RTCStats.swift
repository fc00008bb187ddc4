import Simulation
import StageCore

extension World {
    /// requestRTCStats for one stream an observer receives (LST-5), computed from the simulated
    /// links of both ends: round trip, jitter and loss add up across the two links; the video
    /// layer is the one the observer's downlink carries (LST-4); audio reports peak and rms
    /// levels, silent while the stream is muted. Nil when the observer has no such stream.
    public func rtcStats(observer: String, participant: String, kind: MediaKind) -> [String: [String: String]]? {
        guard let observerIndex = clientIndex(named: observer), let publisherIndex = clientIndex(named: participant),
              let stream = clients[observerIndex].view[participant]?.addedStreams.first(where: { $0.kind == kind })
        else { return nil }
        let down = network.links[observerIndex]
        let up = network.links[publisherIndex]
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
            let layer = clients[publisherIndex].video.layer(forDownlinkBitsPerSecond: down.downlinkBitsPerSecond)
            inbound["layer"] = layer.name
            inbound["frameHeight"] = String(layer.heightPixels)
            inbound["bitrateBitsPerSecond"] = String(min(layer.bitrateBitsPerSecond, down.downlinkBitsPerSecond))
            inbound["framesPerSecond"] = String(clients[publisherIndex].video.targetFramerateFramesPerSecond)
        case .audio:
            inbound["peakDb"] = stream.isMuted ? "-100.0" : String(-6.0 - 20 * (1 - delivered))
            inbound["rmsDb"] = stream.isMuted ? "-100.0" : String(-18.0 - 20 * (1 - delivered))
        }
        return ["inbound-rtp-\(kind.rawValue)": inbound]
    }
}
