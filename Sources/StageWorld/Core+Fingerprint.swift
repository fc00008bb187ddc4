import Simulation
import StageCore

// The StageCore values a world holds, written for the model checker's state encoding:
// participant ids through the renaming (symmetry), enum cases as tag bytes.

extension MediaKind: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) { writer.writeCase(self) }
}

extension SubscribeType: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) { writer.writeCase(self) }
}

extension Attributes: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(UInt32(pairs.count))
        for pair in pairs {
            writer.write(pair.key)
            writer.write(pair.value)
        }
    }
}

extension Capabilities: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(canPublish)
        writer.write(canSubscribe)
    }
}

extension ParticipantInfo: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.writeName(participantId)
        writer.write(userId)
        writer.write(isLocal)
        attributes.encode(to: &writer)
        capabilities.encode(to: &writer)
    }
}

extension StageStream: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.writeName(participantId)
        kind.encode(to: &writer)
        writer.write(isMuted)
    }
}

extension LocalStream: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        kind.encode(to: &writer)
        writer.write(instance)
        writer.write(isMuted)
        writer.writeOptional(video)
    }
}

extension StageError: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.writeCase(code)
        switch category {
        case .join: writer.writeTag(0)
        case .publish: writer.writeTag(1)
        case .subscribe: writer.writeTag(2)
        case .exchangeToken: writer.writeTag(3)
        case .connection: writer.writeTag(4)
        }
        writer.write(isFatal)
    }
}

extension TokenOrigin: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) { writer.writeTag(self == .keyPair ? 0 : 1) }
}

extension TokenClaims: ExplorationEncodable {
    /// Every payload field, the participant id renamed; issued-at and expiry are the token's
    /// own constants (they never move with the clock), so they are written.
    func encode(to writer: inout CanonicalWriter) {
        writer.write(topic)
        writer.write(resource)
        writer.writeName(participantId)
        writer.write(whipURL)
        writer.write(eventsURL)
        attributes.encode(to: &writer)
        capabilities.encode(to: &writer)
        writer.write(userId)
        writer.write(issuedAtSeconds)
        writer.write(expiresAtSeconds)
    }
}

extension TokenKeyRing: ExplorationEncodable {
    /// The trusted key ids with their origins, and the revoked ids. A ring holds one key per id
    /// and nothing changes it during a run, so the key material (an x9.63 export per key, per
    /// state) would add cost and no distinction.
    func encode(to writer: inout CanonicalWriter) {
        writer.write(UInt32(keys.count))
        for key in keys {
            writer.write(key.keyId)
            key.origin.encode(to: &writer)
        }
        writer.write(revokedKeyIds)
    }
}

extension RemoteParticipant: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        info.encode(to: &writer)
        writer.writeOrdered(publishedStreams)
        answer.encode(to: &writer)
        requested.encode(to: &writer)
        writer.writeCase(subscribeState)
        writer.writeOrdered(addedStreams)
        writer.write(announced)
    }
}

extension LocalParticipant: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        info.encode(to: &writer)
        writer.writeCase(connectionState)
        writer.writeCase(publishState)
        writer.write(wantsToPublish)
        writer.writeOrdered(streams)
        writer.writeOrdered(publishedStreams)
    }
}

extension StageView: ExplorationEncodable {
    /// The local participant, then the remotes as a set: their order is by participant id,
    /// which the renaming would change.
    func encode(to writer: inout CanonicalWriter) {
        local.encode(to: &writer)
        writer.writeUnordered(remotes)
    }
}

extension SDKKind: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        switch self {
        case .mobile(let version):
            writer.writeTag(0)
            version.encode(to: &writer)
        case .web(let version):
            writer.writeTag(1)
            version.encode(to: &writer)
        case .composition:
            writer.writeTag(2)
        }
    }
}

extension SemanticVersion: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(major)
        writer.write(minor)
        writer.write(patch)
    }
}

extension SimulcastLayer: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(name)
        writer.write(bitrateBitsPerSecond)
        writer.write(heightPixels)
    }
}

extension VideoConfiguration: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(limits.bitrateRangeBitsPerSecond.lowerBound)
        writer.write(limits.bitrateRangeBitsPerSecond.upperBound)
        writer.write(limits.frameRateRangeFramesPerSecond.lowerBound)
        writer.write(limits.frameRateRangeFramesPerSecond.upperBound)
        writer.write(limits.maximumLongSidePixels)
        writer.write(limits.maximumShortSidePixels)
        writer.write(maxBitrateBitsPerSecond)
        writer.write(minBitrateBitsPerSecond)
        writer.write(targetFramerateFramesPerSecond)
        writer.write(widthPixels)
        writer.write(heightPixels)
        writer.writeCase(degradationPreference)
        writer.write(simulcastEnabled)
    }
}
