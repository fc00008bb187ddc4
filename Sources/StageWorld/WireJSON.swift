import Signaling
import StageCore

/// The JSON forms of the stage's values inside signaling frames (SIG-3, SIG-4): participant
/// info, streams, publisher snapshots and errors, and reading them back from a dynamic value.
enum WireJSON {
    static func info(_ info: ParticipantInfo) -> JSONValue {
        .object([
            "participant_id": .string(info.participantId), "user_id": .string(info.userId),
            "attributes": .object(JSONObject(info.attributes.pairs.map { ($0.key, JSONValue.string($0.value)) })),
            "allow_publish": .bool(info.capabilities.canPublish), "allow_subscribe": .bool(info.capabilities.canSubscribe),
        ])
    }

    static func stream(_ stream: StageStream) -> JSONValue {
        .object(["participant_id": .string(stream.participantId), "kind": .string(stream.kind.rawValue), "muted": .bool(stream.isMuted)])
    }

    static func snapshot(_ snapshot: PublisherSnapshot) -> JSONValue {
        .object([
            "participant": info(snapshot.info), "streams": .array(snapshot.streams.map(stream)),
            "video_sdp": .string(PublisherLines.lines(snapshot.properties)),
            "created_ns": .number(JSONNumber(snapshot.properties.creationTimeNanoseconds)),
            "stream_no": .number(JSONNumber(snapshot.properties.streamNumber)),
        ])
    }

    static func error(_ error: StageError, reason: String? = nil) -> JSONValue {
        var object: JSONObject = ["code": .number(JSONNumber(error.code.rawValue)), "category": .string(error.category.rawValue), "fatal": .bool(error.isFatal)]
        if let reason { object["reason"] = .string(reason) }
        return .object(object)
    }

    /// A participant's info (TOK-2): its id, user id, string attributes within 1 KB and both
    /// capabilities.
    static func info(from reader: WireReader) throws(FrameError) -> ParticipantInfo {
        let attributes = try reader.reader("attributes")
        var pairs: [(String, String)] = []
        for key in attributes.object.keys { pairs.append((key, try attributes.string(key))) }
        let info = ParticipantInfo(
            participantId: try reader.participantId("participant_id"), userId: try reader.string("user_id"), isLocal: false,
            attributes: Attributes(pairs),
            capabilities: Capabilities(canPublish: try reader.bool("allow_publish"), canSubscribe: try reader.bool("allow_subscribe"))
        )
        guard info.attributes.byteCount <= TokenClaims.attributesByteLimit else {
            throw FrameError("\(attributes.path) are \(info.attributes.byteCount) bytes, over the \(TokenClaims.attributesByteLimit)-byte limit")
        }
        return info
    }

    /// A participant as the service describes it: its info, its streams (each its own, one per
    /// kind), its video description, and the stream's creation time and number (SUB-7).
    static func snapshot(from reader: WireReader) throws(FrameError) -> PublisherSnapshot {
        let info = try info(from: reader.reader("participant"))
        let streams = try streams(from: reader, of: info.participantId)
        var properties = try videoProperties(from: reader)
        properties.creationTimeNanoseconds = UInt64(try reader.int("created_ns", in: WireLimits.creationTimeNanoseconds))
        properties.streamNumber = try reader.int("stream_no", in: WireLimits.streamNumber)
        return PublisherSnapshot(info: info, streams: streams, properties: properties)
    }

    /// The publisher's video description, its errors named after `video_sdp` (SUB-6..8).
    private static func videoProperties(from reader: WireReader) throws(FrameError) -> PublisherProperties {
        let sdp = try reader.string("video_sdp")
        do {
            return try PublisherLines.properties(fromSDP: sdp)
        } catch {
            throw FrameError("\(reader.path).video_sdp: \(error.message)")
        }
    }

    private static func streams(from reader: WireReader, of participantId: String) throws(FrameError) -> [StageStream] {
        var streams: [StageStream] = []
        for (position, item) in try reader.array("streams").enumerated() {
            let stream = try WireReader(item, "\(reader.path).streams[\(position)]")
            guard let kind = MediaKind(rawValue: try stream.string("kind")) else { throw FrameError("\(stream.path).kind is not audio or video") }
            guard try stream.participantId("participant_id") == participantId else { throw FrameError("\(stream.path) belongs to another participant") }
            guard !streams.contains(where: { $0.kind == kind }) else { throw FrameError("\(stream.path) repeats the \(kind.rawValue) stream") }
            streams.append(StageStream(participantId: participantId, kind: kind, isMuted: try stream.bool("muted")))
        }
        return streams
    }

    /// A stage error of `category` (the event it rides on decides it): a known code, its
    /// category, whether it is fatal, and the `reason` when there is one (a string).
    static func error(from reader: WireReader, category: StageErrorCategory) throws(FrameError) -> (error: StageError, reason: String?) {
        guard let code = StageErrorCode(rawValue: try reader.int("code", in: Int.min...Int.max)) else {
            throw FrameError("\(reader.path).code is not a stage error code")
        }
        let named = try reader.string("category")
        guard named == category.rawValue else { throw FrameError("\(reader.path).category is \(TokenCodec.quoted(named)), expected \(category.rawValue)") }
        return (StageError(code: code, category: category, isFatal: try reader.bool("fatal")), try reader.optionalString("reason"))
    }

    /// A refusal's error, whose `reason` is required.
    static func rejection(from reader: WireReader, category: StageErrorCategory) throws(FrameError) -> (StageError, String) {
        let (error, reason) = try error(from: reader, category: category)
        guard let reason else { throw FrameError("\(reader.path).reason is missing") }
        return (error, reason)
    }
}

/// Why a frame that is valid Sora signaling does not carry a stage message (SIG-8).
struct FrameError: Error, Hashable, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}
