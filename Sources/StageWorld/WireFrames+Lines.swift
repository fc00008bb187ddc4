import Signaling
import StageCore
import SubscriberModel

/// The one `a=x-stagesim-<op>:<value>` line of a client's `x-stagesim-request` SDP: publish, unpublish,
/// mute, subscribe, unsubscribe, or the token of an exchange (SIG-1); and the token line of the
/// `connect` SDP.
enum SessionLine {
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
        guard let line = sdp.split(separator: "\r\n").first(where: { $0.hasPrefix("a=x-stagesim-") }),
              let colon = line.firstIndex(of: ":") else { throw FrameError("x-stagesim-request sdp has no a=x-stagesim- line") }
        let operation = line[line.index(line.startIndex, offsetBy: 13)..<colon]
        let value = String(line[line.index(after: colon)...])
        switch operation {
        case "publish": return .publish(try streams(value), try PublisherLines.properties(fromSDP: sdp))
        case "unpublish": return .unpublish
        case "mute":
            let parts = value.split(separator: "=")
            guard parts.count == 2, let kind = MediaKind(rawValue: String(parts[0])), let muted = Bool(String(parts[1])) else {
                throw FrameError("mute line \(value) is not kind=true|false")
            }
            return .mute(kind, muted)
        case "subscribe":
            let parts = value.split(separator: "=")
            guard parts.count == 2, let type = SubscribeType(rawValue: String(parts[1])) else { throw FrameError("subscribe line \(value) is not id=type") }
            return .subscribe(publisherId: String(parts[0]), type)
        case "unsubscribe": return .unsubscribe(publisherId: value)
        case "token": return .exchangeToken(value)
        default: throw FrameError("unknown session operation \(operation)")
        }
    }

    /// The `a=msid:` line naming a publisher's media stream, as a re-offer adds it (SIG-1).
    static func mediaStream(of publisherId: String) -> String { "a=msid:\(publisherId)" }

    /// The publisher whose media stream a re-offer's SDP names on its `a=msid:` line.
    static func mediaStreamOwner(inSDP sdp: String) throws(FrameError) -> String {
        guard let line = sdp.split(separator: "\r\n").first(where: { $0.hasPrefix("a=msid:") }), line.count > 7 else {
            throw FrameError("re-offer sdp has no a=msid: line")
        }
        return String(line.dropFirst(7))
    }

    /// The token on the `a=x-stagesim-token:` line of an SDP, if it has one.
    static func token(inSDP sdp: String) -> String? {
        sdp.split(separator: "\r\n").first { $0.hasPrefix("a=x-stagesim-token:") }.map { String($0.dropFirst(19)) }
    }

    /// `audio,video!muted`: the publishing participant's id is filled in by the service.
    private static func streams(_ value: String) throws(FrameError) -> [StageStream] {
        var streams: [StageStream] = []
        for item in value.split(separator: ",") {
            let muted = item.hasSuffix("!muted")
            guard let kind = MediaKind(rawValue: String(muted ? item.dropLast(6) : item)) else { throw FrameError("unknown stream kind \(item)") }
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

    /// The stage message of a stage event, nil for application data; a stage event with a
    /// missing or mistyped member is a `FrameError` (SIG-8).
    static func message(from data: JSONValue) throws(FrameError) -> WireMessage? {
        guard let object = data.objectValue, let event = object["event"]?.stringValue else { return nil }
        let reader = try WireJSON.Reader(data, "push.data")
        switch event {
        case "joinRejected":
            let (error, reason) = try WireJSON.error(from: reader.object["error"])
            return .joinRejected(error, reason: reason)
        case "publishAccepted": return .publishAccepted
        case "publishRejected": return .publishRejected(try WireJSON.error(from: reader.object["error"]).0)
        case "participantPublished":
            guard let publisher = reader.object["publisher"] else { throw FrameError("push.data.publisher is missing") }
            return .participantPublished(try WireJSON.snapshot(from: publisher))
        case "participantUnpublished": return .participantUnpublished(participantId: try reader.string("participant_id"))
        case "exchangeAccepted": return .exchangeAccepted(try WireJSON.info(from: reader.object["participant"]))
        case "exchangeRejected":
            let (error, reason) = try WireJSON.error(from: reader.object["error"])
            return .exchangeRejected(error, reason: reason)
        case "ejected": return .ejected(reason: try reader.string("reason"))
        case "participantInterrupted": return .participantInterrupted(participantId: try reader.string("participant_id"))
        case "participantReconnected": return .participantReconnected(try WireJSON.info(from: reader.object["participant"]))
        default: return nil
        }
    }
}

/// The publisher's video properties as `a=x-stagesim-video:` and `a=x-stagesim-layer:` lines of
/// its publish SDP (SUB-6..8).
enum PublisherLines {
    static func lines(_ properties: PublisherProperties) -> String {
        var lines = ["a=x-stagesim-video:fallback=\(properties.audioFallbackEnabled) type=\(properties.videoType.rawValue) "
            + "size=\(properties.widthPixels)x\(properties.heightPixels) fps=\(properties.framesPerSecond)"]
        lines += properties.layers.map { "a=x-stagesim-layer:\($0.name) \($0.bitrateBitsPerSecond) \($0.heightPixels)" }
        return lines.joined(separator: "\r\n")
    }

    static func properties(fromSDP sdp: String) throws(FrameError) -> PublisherProperties {
        var properties = PublisherProperties()
        properties.layers = []
        for line in sdp.split(separator: "\r\n") {
            if line.hasPrefix("a=x-stagesim-video:") {
                try readVideo(line.dropFirst(19), into: &properties)
            } else if line.hasPrefix("a=x-stagesim-layer:") {
                let parts = line.dropFirst(19).split(separator: " ")
                guard parts.count == 3, let bitrate = Int(parts[1]), let height = Int(parts[2]) else { throw FrameError("layer line \(line) is malformed") }
                properties.layers.append(SimulcastLayer(name: String(parts[0]), bitrateBitsPerSecond: bitrate, heightPixels: height))
            }
        }
        return properties
    }

    /// `fallback=true type=camera size=720x1280 fps=30`, in that order.
    private static func readVideo(_ text: Substring, into properties: inout PublisherProperties) throws(FrameError) {
        let values = text.split(separator: " ").map { $0.drop { $0 != "=" }.dropFirst() }
        let size = values.count == 4 ? values[2].split(separator: "x") : []
        guard values.count == 4, let fallback = Bool(String(values[0])), let type = OpenTokStream.VideoType(rawValue: String(values[1])),
              size.count == 2, let width = Int(size[0]), let height = Int(size[1]), let fps = Int(values[3]) else {
            throw FrameError("publish video line \(text) is malformed")
        }
        properties.audioFallbackEnabled = fallback
        properties.videoType = type
        properties.widthPixels = width
        properties.heightPixels = height
        properties.framesPerSecond = fps
    }
}
