import Signaling
import Simulation
import StageCore

// Messages, host calls and the strategy data they carry, written for the model checker's
// state encoding: tokens by their claims (`writeToken`), frames by the message they decode to,
// participant ids through the renaming.

extension JSONValue: ExplorationEncodable {
    /// The canonical JSON text (members in their stored order, which is part of the value).
    func encode(to writer: inout CanonicalWriter) { writer.write(jsonText) }
}

extension ConnectMetadata: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.writeOptional(metadata)
        writer.writeOptional(notifyMetadata)
    }
}

extension PublisherProperties: ExplorationEncodable {
    /// The stream's creation time is an absolute time and left out (as `OpenTokStream`'s is);
    /// its number is kept, as the stream id that embeds it is.
    func encode(to writer: inout CanonicalWriter) {
        writer.write(streamNumber)
        writer.write(audioFallbackEnabled)
        writer.writeCase(videoType)
        writer.write(widthPixels)
        writer.write(heightPixels)
        writer.write(framesPerSecond)
        writer.writeOrdered(layers)
    }
}

extension PublisherSnapshot: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        info.encode(to: &writer)
        writer.writeOrdered(streams)
        properties.encode(to: &writer)
    }
}

extension SubscribeRule: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.writeOptional(participantId) { writer, id in writer.writeName(id) }
        attributes.encode(to: &writer)
        answer.encode(to: &writer)
    }
}

extension StrategySpec: ExplorationEncodable {
    /// The answers, rules in order (the first match wins).
    func encode(to writer: inout CanonicalWriter) {
        writer.write(publish)
        writer.writeOrdered(streams)
        subscribe.encode(to: &writer)
        writer.writeOrdered(rules)
    }
}

extension WireMessage {
    /// The case's tag, then its payload; tokens go through `writeToken` with `keyRing`.
    func encode(to writer: inout CanonicalWriter, keyRing: TokenKeyRing) {
        writer.writeTag(explorationTag)
        switch self {
        case .join(let token, let metadata):
            writer.writeToken(token, keyRing: keyRing)
            metadata.encode(to: &writer)
        case .exchangeToken(let token):
            writer.writeToken(token, keyRing: keyRing)
        case .publish(let streams, let properties):
            writer.writeOrdered(streams)
            properties.encode(to: &writer)
        case .mute(let kind, let muted):
            kind.encode(to: &writer)
            writer.write(muted)
        case .subscribe(let publisherId, let type):
            writer.writeName(publisherId)
            type.encode(to: &writer)
        case .unsubscribe(let id), .participantUnpublished(let id), .participantLeft(let id), .subscribeAccepted(let id),
             .participantInterrupted(let id):
            writer.writeName(id)
        case .joinAccepted(let snapshots, let connectionId):
            writer.writeUnordered(snapshots)
            writer.writeName(connectionId)
        case .joinRejected(let error, let reason), .exchangeRejected(let error, let reason):
            error.encode(to: &writer)
            writer.write(reason)
        case .exchangeAccepted(let info), .participantUpdated(let info), .participantReconnected(let info):
            info.encode(to: &writer)
        case .ejected(let reason):
            writer.write(reason)
        case .publishRejected(let error):
            error.encode(to: &writer)
        case .participantJoined(let info, let notifyMetadata):
            info.encode(to: &writer)
            writer.writeOptional(notifyMetadata)
        case .participantPublished(let snapshot):
            snapshot.encode(to: &writer)
        case .applicationData(let signaling):
            writer.write(signaling.frame)
        case .unpublish, .leave, .pong, .ping, .publishAccepted, .answer, .reAnswer:
            break
        }
    }

    /// Whether the message carries a token (written by its claims under the run's key ring).
    var carriesToken: Bool {
        switch self {
        case .join, .exchangeToken: true
        default: false
        }
    }

    private var explorationTag: UInt8 {
        switch self {
        case .join: 0
        case .exchangeToken: 1
        case .publish: 2
        case .unpublish: 3
        case .mute: 4
        case .subscribe: 5
        case .unsubscribe: 6
        case .leave: 7
        case .pong: 8
        case .ping: 9
        case .joinAccepted: 10
        case .joinRejected: 11
        case .exchangeAccepted: 12
        case .exchangeRejected: 13
        case .participantUpdated: 14
        case .ejected: 15
        case .publishAccepted: 16
        case .publishRejected: 17
        case .participantJoined: 18
        case .participantPublished: 19
        case .participantUnpublished: 20
        case .participantLeft: 21
        case .subscribeAccepted: 22
        case .applicationData: 25
        case .answer: 26
        case .reAnswer: 27
        case .participantInterrupted: 23
        case .participantReconnected: 24
        }
    }
}

extension Envelope {
    /// A frame in flight or held: its connection, its transport position relative to the
    /// receiving side's next expected number (unnumbered frames by a tag), and the message it
    /// decodes to (the frame text itself when it decodes to none). The count of lost
    /// transmissions only sets the retransmission delay, a time, and is left out.
    func encode(to writer: inout CanonicalWriter, nextExpected: UInt64, clientEpoch: Int, keyRing: TokenKeyRing) {
        writer.writeEpoch(epoch, relativeTo: clientEpoch)
        if sequence == 0 {
            writer.writeTag(0)
        } else {
            writer.writeTag(1)
            writer.writeRelative(sequence, to: nextExpected)
        }
        switch decoded() {
        case .success(let message):
            writer.writeTag(0)
            if message.carriesToken {
                message.encode(to: &writer, keyRing: keyRing)
            } else {
                writer.writeOnce(content) { message.encode(to: &$0, keyRing: keyRing) }
            }
        case .failure:
            writer.writeTag(1)
            writer.write(frame)
        }
    }
}

extension HostCall {
    func encode(to writer: inout CanonicalWriter, keyRing: TokenKeyRing) {
        switch self {
        case .join: writer.writeTag(0)
        case .leave: writer.writeTag(1)
        case .refreshStrategy: writer.writeTag(2)
        case .setStrategy(let spec):
            writer.writeTag(3)
            spec.encode(to: &writer)
        case .setMuted(let kind, let muted):
            writer.writeTag(4)
            kind.encode(to: &writer)
            writer.write(muted)
        case .exchangeToken(let token):
            writer.writeTag(5)
            writer.writeToken(token, keyRing: keyRing)
        case .setPreferredResolution(let publisherId, let width, let height):
            writer.writeTag(6)
            writer.writeName(publisherId)
            writer.write(width)
            writer.write(height)
        case .setPreferredFrameRate(let publisherId, let framesPerSecond):
            writer.writeTag(7)
            writer.writeName(publisherId)
            writer.write(framesPerSecond)
        }
    }
}
