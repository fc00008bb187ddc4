import Signaling
import StageCore
import SubscriberModel

/// The one `a=x-stagesim-<op>:<value>` line of a client's `x-stagesim-request` SDP: publish, unpublish,
/// mute, subscribe, unsubscribe, or the token of an exchange (SIG-1); and the token line of the
/// `connect` SDP.
enum SessionLine {
    /// The non-empty lines of an SDP, split at CRLF and found in its UTF-8 bytes. CRLF is one
    /// Character wherever it occurs, so these are the lines a split by Character gives; that
    /// split cost a quarter of a million instructions for an SDP carrying a token.
    static func lines(of sdp: String) -> [Substring] {
        let utf8 = sdp.utf8
        var lines: [Substring] = []
        var (start, index) = (utf8.startIndex, utf8.startIndex)
        while index != utf8.endIndex {
            let next = utf8.index(after: index)
            guard utf8[index] == 0x0D, next != utf8.endIndex, utf8[next] == 0x0A else {
                index = next
                continue
            }
            if start != index { lines.append(sdp[start..<index]) }
            start = utf8.index(after: next)
            index = start
        }
        if start != utf8.endIndex { lines.append(sdp[start...]) }
        return lines
    }

    static func line(for message: WireMessage) -> String {
        switch message {
        case .publish(let streams, let properties):
            return "a=x-stagesim-publish:" + streams.map { $0.kind.rawValue + ($0.isMuted ? "!muted" : "") }.joined(separator: ",")
                + "\r\n" + PublisherLines.lines(properties)
        case .unpublish: return "a=x-stagesim-unpublish:"
        case .mute(let kind, let muted): return "a=x-stagesim-mute:\(kind.rawValue)=\(muted)"
        case .subscribe(let id, let type): return "a=x-stagesim-subscribe:\(id)=\(type.rawValue)"
        case .unsubscribe(let id): return "a=x-stagesim-unsubscribe:\(id)"
        case .exchangeToken(let token), .join(let token, _): return "a=x-stagesim-token:\(token)"
        default: return ""
        }
    }

    static func message(fromSDP sdp: String) throws(FrameError) -> WireMessage {
        guard let line = SessionLine.lines(of: sdp).first(where: { $0.hasPrefix("a=x-stagesim-") }),
              let colon = line.firstIndex(of: ":") else { throw FrameError("x-stagesim-request sdp has no a=x-stagesim- line") }
        let operation = line[line.index(line.startIndex, offsetBy: 13)..<colon]
        let value = line[line.index(after: colon)...]
        switch operation {
        case "publish": return .publish(try streams(value), try PublisherLines.properties(fromSDP: sdp))
        case "unpublish": return .unpublish
        case "mute":
            let (kind, muted) = try pair(value, "mute")
            guard let kind = MediaKind(rawValue: String(kind)), let muted = Bool(String(muted)) else { throw FrameError("mute line \(TokenCodec.quoted(String(value))) is not kind=true|false") }
            return .mute(kind, muted)
        case "subscribe":
            let (id, type) = try pair(value, "subscribe")
            guard let type = SubscribeType(rawValue: String(type)) else { throw FrameError("subscribe line \(TokenCodec.quoted(String(value))) is not id=type") }
            return .subscribe(publisherId: try WireReader.participantId(String(id), "subscribe line"), type)
        case "unsubscribe": return .unsubscribe(publisherId: try WireReader.participantId(String(value), "unsubscribe line"))
        case "token": return .exchangeToken(String(value))
        default: throw FrameError("unknown session operation \(TokenCodec.quoted(String(operation)))")
        }
    }

    /// `left=right`, both sides present.
    private static func pair(_ value: Substring, _ operation: String) throws(FrameError) -> (Substring, Substring) {
        let parts = value.split(separator: "=", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw FrameError("\(operation) line \(TokenCodec.quoted(String(value))) is not one left=right pair") }
        return (parts[0], parts[1])
    }

    /// The `a=msid:` line naming a publisher's media stream, as a re-offer adds it (SIG-1).
    static func mediaStream(of publisherId: String) -> String { "a=msid:\(publisherId)" }

    /// The publisher whose media stream a re-offer's SDP names on its `a=msid:` line.
    static func mediaStreamOwner(inSDP sdp: String) throws(FrameError) -> String {
        guard let line = SessionLine.lines(of: sdp).first(where: { $0.hasPrefix("a=msid:") }) else {
            throw FrameError("re-offer sdp has no a=msid: line")
        }
        return try WireReader.participantId(String(line.dropFirst(7)), "re-offer a=msid:")
    }

    /// The token on the `a=x-stagesim-token:` line of an SDP, if it has one.
    static func token(inSDP sdp: String) -> String? {
        SessionLine.lines(of: sdp).first { $0.hasPrefix("a=x-stagesim-token:") }.map { String($0.dropFirst(19)) }
    }

    /// `audio,video!muted`, at least one stream and one per kind; the publishing participant's
    /// id is filled in by the service.
    private static func streams(_ value: Substring) throws(FrameError) -> [StageStream] {
        var streams: [StageStream] = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let muted = item.hasSuffix("!muted")
            guard let kind = MediaKind(rawValue: String(muted ? item.dropLast(6) : item)) else { throw FrameError("unknown stream kind \(TokenCodec.quoted(String(item)))") }
            guard !streams.contains(where: { $0.kind == kind }) else { throw FrameError("publish line repeats the \(kind.rawValue) stream") }
            streams.append(StageStream(participantId: "", kind: kind, isMuted: muted))
        }
        return streams
    }
}

/// Stage events the service sends as `push` data: `{"event": "<name>", ...}` (SIG-2 push.data).
/// Any other push data is the application's (SIG-2): `message(from:)` returns nil for it.
enum PushEvent {
    static func data(for message: WireMessage) -> JSONValue {
        switch message {
        case .joinRejected(let error, let reason): ["event": "joinRejected", "error": WireJSON.error(error, reason: reason)]
        case .publishAccepted: ["event": "publishAccepted"]
        case .publishRejected(let error): ["event": "publishRejected", "error": WireJSON.error(error)]
        case .participantPublished(let snapshot): ["event": "participantPublished", "publisher": WireJSON.snapshot(snapshot)]
        case .participantUnpublished(let id): ["event": "participantUnpublished", "participant_id": .string(id)]
        case .exchangeAccepted(let info): ["event": "exchangeAccepted", "participant": WireJSON.info(info)]
        case .exchangeRejected(let error, let reason): ["event": "exchangeRejected", "error": WireJSON.error(error, reason: reason)]
        case .ejected(let reason): ["event": "ejected", "reason": .string(reason)]
        case .participantInterrupted(let id): ["event": "participantInterrupted", "participant_id": .string(id)]
        case .participantReconnected(let info): ["event": "participantReconnected", "participant": WireJSON.info(info)]
        default: ["event": "unknown"]
        }
    }

    /// The stage message of a stage event, nil for application data: data that is not an
    /// object, or whose `event` is not a string naming a stage event, belongs to the
    /// application (SIG-2). A stage event with a member missing, mistyped or out of range is a
    /// `FrameError` (SIG-8); members it does not read are ignored.
    static func message(from data: JSONValue) throws(FrameError) -> WireMessage? {
        guard let object = data.objectValue, let event = object["event"]?.stringValue else { return nil }
        let reader = try WireReader(data, "push.data")
        switch event {
        case "joinRejected":
            let (error, reason) = try WireJSON.rejection(from: reader.reader("error"), category: .join)
            return .joinRejected(error, reason: reason)
        case "publishAccepted": return .publishAccepted
        case "publishRejected": return .publishRejected(try WireJSON.error(from: reader.reader("error"), category: .publish).error)
        case "participantPublished": return .participantPublished(try publishing(reader.reader("publisher")))
        case "participantUnpublished": return .participantUnpublished(participantId: try reader.participantId("participant_id"))
        case "exchangeAccepted": return .exchangeAccepted(try WireJSON.info(from: reader.reader("participant")))
        case "exchangeRejected":
            let (error, reason) = try WireJSON.rejection(from: reader.reader("error"), category: .exchangeToken)
            return .exchangeRejected(error, reason: reason)
        case "ejected": return .ejected(reason: try reader.string("reason"))
        case "participantInterrupted": return .participantInterrupted(participantId: try reader.participantId("participant_id"))
        case "participantReconnected": return .participantReconnected(try WireJSON.info(from: reader.reader("participant")))
        default: return nil
        }
    }

    /// A participantPublished announces a publish: its publisher has at least one stream.
    private static func publishing(_ publisher: WireReader) throws(FrameError) -> PublisherSnapshot {
        let snapshot = try WireJSON.snapshot(from: publisher)
        guard !snapshot.streams.isEmpty else { throw FrameError("\(publisher.path).streams is empty: a publish has a stream") }
        return snapshot
    }
}

/// The publisher's video properties as `a=x-stagesim-video:` and `a=x-stagesim-layer:` lines of
/// its publish SDP (SUB-6..8).
enum PublisherLines {
    /// The video line and one line per layer, built in one string (every snapshot of every
    /// offer carries them). Memoized by what the lines say (`written`, the properties without
    /// their creation time and stream number, which no line carries): a run's publishers describe their video in
    /// a handful of ways that every offer and publish repeats.
    static func lines(_ properties: PublisherProperties) -> String {
        let described = properties.created(at: 0, streamNumber: 0)
        return written.value(for: described) { write(described) }
    }

    private static let written = MemoCache<PublisherProperties, String>(capacity: 1_000)

    private static func write(_ properties: PublisherProperties) -> String {
        var lines = "a=x-stagesim-video:fallback=\(properties.audioFallbackEnabled) type=\(properties.videoType.rawValue) "
        lines += "size=\(properties.widthPixels)x\(properties.heightPixels) fps=\(properties.framesPerSecond)"
        for layer in properties.layers {
            lines += "\r\na=x-stagesim-layer:\(layer.name) \(layer.bitrateBitsPerSecond) \(layer.heightPixels)"
        }
        return lines
    }

    /// Reads the one video line and the 1...3 layer lines (names unique) of an SDP; every
    /// number must lie in its `WireLimits` range (SIG-8).
    /// Memoized by the exact SDP text (`readings`): the reading is a pure function of the
    /// text, and a run's publishers describe their video with a handful of distinct SDPs that
    /// every offer and publish repeats.
    static func properties(fromSDP sdp: String) throws(FrameError) -> PublisherProperties {
        try readings.value(for: sdp) { read(sdp) }.get()
    }

    private static let readings = MemoCache<String, Result<PublisherProperties, FrameError>>(capacity: 1_000)

    private static func read(_ sdp: String) -> Result<PublisherProperties, FrameError> {
        do throws(FrameError) {
            return .success(try readProperties(fromSDP: sdp))
        } catch {
            return .failure(error)
        }
    }

    private static func readProperties(fromSDP sdp: String) throws(FrameError) -> PublisherProperties {
        var video: PublisherProperties?
        var layers: [SimulcastLayer] = []
        for line in SessionLine.lines(of: sdp) {
            if line.hasPrefix("a=x-stagesim-video:") {
                guard video == nil else { throw FrameError("publish sdp has two a=x-stagesim-video: lines") }
                video = try readVideo(line.dropFirst(19))
            } else if line.hasPrefix("a=x-stagesim-layer:") {
                let layer = try readLayer(line.dropFirst(19))
                guard !layers.contains(where: { $0.name == layer.name }) else { throw FrameError("publish sdp repeats layer \(TokenCodec.quoted(layer.name))") }
                layers.append(layer)
            }
        }
        guard var properties = video else { throw FrameError("publish sdp has no a=x-stagesim-video: line") }
        guard WireLimits.layerCount.contains(layers.count) else { throw WireLimits.outOfRange("publish sdp layer count", String(layers.count), WireLimits.layerCount) }
        properties.layers = layers
        return properties
    }

    /// `fallback=true type=camera size=720x1280 fps=30`: these four keys, in this order.
    private static func readVideo(_ text: Substring) throws(FrameError) -> PublisherProperties {
        let fields = text.split(separator: " ", omittingEmptySubsequences: false)
        let keys = ["fallback", "type", "size", "fps"]
        guard fields.count == keys.count, zip(keys, fields).allSatisfy({ $1.hasPrefix($0 + "=") }) else {
            throw FrameError("publish video line \(TokenCodec.quoted(String(text))) is not fallback= type= size= fps=")
        }
        let values = zip(keys, fields).map { $1.dropFirst($0.count + 1) }
        let size = values[2].split(separator: "x", omittingEmptySubsequences: false)
        guard let fallback = Bool(String(values[0])), let type = OpenTokStream.VideoType(rawValue: String(values[1])), size.count == 2 else {
            throw FrameError("publish video line \(TokenCodec.quoted(String(text))) is malformed")
        }
        var properties = PublisherProperties(audioFallbackEnabled: fallback, videoType: type)
        properties.widthPixels = try WireLimits.sdpNumber(size[0], "video width", in: WireLimits.sidePixels)
        properties.heightPixels = try WireLimits.sdpNumber(size[1], "video height", in: WireLimits.sidePixels)
        properties.framesPerSecond = try WireLimits.sdpNumber(values[3], "video frame rate", in: WireLimits.framesPerSecond)
        return properties
    }

    /// `<name> <bitrate bps> <height px>`.
    private static func readLayer(_ text: Substring) throws(FrameError) -> SimulcastLayer {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty else { throw FrameError("layer line \(TokenCodec.quoted(String(text))) is not name bitrate height") }
        return SimulcastLayer(
            name: String(parts[0]),
            bitrateBitsPerSecond: try WireLimits.sdpNumber(parts[1], "layer bitrate", in: WireLimits.layerBitsPerSecond),
            heightPixels: try WireLimits.sdpNumber(parts[2], "layer height", in: WireLimits.sidePixels)
        )
    }
}
