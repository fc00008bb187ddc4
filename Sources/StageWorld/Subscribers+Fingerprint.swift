import Simulation
import SubscriberModel

// The subscriber-model values a client holds, written for the model checker's state encoding.
// Their virtual-time stamps (stream creation, subscribe/connect/disconnect times, the last
// input's time, quality-fallback start times) are absolute times and left out; so are the
// `lastIgnored` diagnostics, which no behaviour reads. Stream ids and connection ids embed
// participant ids and go through the renaming.

extension OpenTokStream.Layer: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(width)
        writer.write(height)
        writer.write(framesPerSecond)
        writer.write(bitsPerSecond)
    }
}

extension OpenTokStream.VideoDimensions: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(width)
        writer.write(height)
    }
}

extension OpenTokStream: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.writeStreamId(streamId)
        writer.write(sessionId)
        writer.writeName(connectionId)
        writer.write(hasAudio)
        writer.write(hasVideo)
        writer.write(name)
        videoDimensions.encode(to: &writer)
        writer.writeCase(videoType)
        writer.write(audioFallbackEnabled)
        writer.writeOrdered(layers)
    }
}

extension SessionObserver: ExplorationEncodable {
    /// The streams present and retired, as sets: streams are looked up by id only.
    func encode(to writer: inout CanonicalWriter) {
        writer.write(sessionId)
        writer.writeName(ownConnectionId)
        writer.write(deliversOwnStreams)
        writer.writeUnordered(streams)
        writer.writeUnordered(retiredStreamIds) { writer, streamId in writer.writeStreamId(streamId) }
    }
}

extension QualityPolicy: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(degradeLossRatio)
        writer.write(recoverLossRatio)
        writer.write(degradeBandwidthFactor)
        writer.write(recoverBandwidthFactor)
        writer.write(disableAfterNanoseconds)
        writer.write(enableAfterNanoseconds)
        writer.write(minimumVideoBitsPerSecond)
    }
}

extension QualityFallback: ExplorationEncodable {
    /// The stage without the times it started at; a disabled stage tells whether a recovery
    /// run is under way.
    func encode(to writer: inout CanonicalWriter) {
        switch stage {
        case .good:
            writer.writeTag(0)
        case .warned:
            writer.writeTag(1)
        case .disabled(let recoveringSince):
            writer.writeTag(2)
            writer.write(recoveringSince != nil)
        }
    }
}

extension LayerPreferences: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.writeOptional(resolution)
        writer.writeOptional(frameRate) { writer, rate in writer.write(rate) }
    }
}

extension SubscriberState: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        stream.encode(to: &writer)
        writer.writeCase(mode)
        policy.encode(to: &writer)
        writer.writeCase(phase)
        writer.write(subscribeToVideo)
        preferences.encode(to: &writer)
        writer.writeOptional(bandwidthBitsPerSecond) { writer, bandwidth in writer.write(bandwidth) }
        quality.encode(to: &writer)
        let announced = SubscriberVideoEventReason.allCases.filter(announcedVideoDisabled.contains)
        writer.write(UInt32(announced.count))
        for reason in announced { writer.writeCase(reason) }
        writer.writeOptional(announcedLayer)
    }
}

extension SubscriberSlot: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.writeName(publisherId)
        writer.write(announcement)
        writer.write(subscriber)
        state.encode(to: &writer)
    }
}
