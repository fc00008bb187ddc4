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
        ])
    }

    static func error(_ error: StageError, reason: String? = nil) -> JSONValue {
        var object: JSONObject = ["code": .number(JSONNumber(error.code.rawValue)), "category": .string(error.category.rawValue), "fatal": .bool(error.isFatal)]
        if let reason { object["reason"] = .string(reason) }
        return .object(object)
    }

    /// Reads the values back; each throws a `FrameError` naming what is missing or wrong.
    struct Reader {
        let object: JSONObject
        let context: String

        init(_ value: JSONValue?, _ context: String) throws(FrameError) {
            guard let object = value?.objectValue else { throw FrameError("\(context) is not an object") }
            self.object = object
            self.context = context
        }

        func string(_ key: String) throws(FrameError) -> String {
            guard let text = object[key]?.stringValue else { throw FrameError("\(context).\(key) is not a string") }
            return text
        }

        func bool(_ key: String) throws(FrameError) -> Bool {
            guard let flag = object[key]?.boolValue else { throw FrameError("\(context).\(key) is not a boolean") }
            return flag
        }

        func int(_ key: String) throws(FrameError) -> Int {
            guard let number = object[key]?.numberValue?.intValue else { throw FrameError("\(context).\(key) is not an integer") }
            return number
        }

        func array(_ key: String) throws(FrameError) -> [JSONValue] {
            guard let items = object[key]?.arrayValue else { throw FrameError("\(context).\(key) is not an array") }
            return items
        }
    }

    static func info(from value: JSONValue?) throws(FrameError) -> ParticipantInfo {
        let reader = try Reader(value, "participant")
        guard let attributes = reader.object["attributes"]?.objectValue else { throw FrameError("participant.attributes is not an object") }
        var pairs: [(String, String)] = []
        for member in attributes.members {
            guard let text = member.value.stringValue else { throw FrameError("attribute \(member.key) is not a string") }
            pairs.append((member.key, text))
        }
        return ParticipantInfo(
            participantId: try reader.string("participant_id"), userId: try reader.string("user_id"), isLocal: false,
            attributes: Attributes(pairs),
            capabilities: Capabilities(canPublish: try reader.bool("allow_publish"), canSubscribe: try reader.bool("allow_subscribe"))
        )
    }

    static func stream(from value: JSONValue) throws(FrameError) -> StageStream {
        let reader = try Reader(value, "stream")
        guard let kind = MediaKind(rawValue: try reader.string("kind")) else { throw FrameError("stream.kind is unknown") }
        return StageStream(participantId: try reader.string("participant_id"), kind: kind, isMuted: try reader.bool("muted"))
    }

    static func snapshot(from value: JSONValue) throws(FrameError) -> PublisherSnapshot {
        let reader = try Reader(value, "publisher")
        var streams: [StageStream] = []
        for item in try reader.array("streams") { streams.append(try stream(from: item)) }
        var properties = try PublisherLines.properties(fromSDP: try reader.string("video_sdp"))
        properties.creationTimeNanoseconds = UInt64(max(try reader.int("created_ns"), 0))
        return PublisherSnapshot(info: try info(from: reader.object["participant"]), streams: streams, properties: properties)
    }

    static func error(from value: JSONValue?) throws(FrameError) -> (StageError, String) {
        let reader = try Reader(value, "error")
        guard let code = StageErrorCode(rawValue: try reader.int("code")),
              let category = StageErrorCategory(rawValue: try reader.string("category")) else { throw FrameError("error code or category is unknown") }
        let reason = reader.object["reason"]?.stringValue ?? ""
        return (StageError(code: code, category: category, isFatal: try reader.bool("fatal")), reason)
    }
}

/// Why a frame that is valid Sora signaling does not carry a stage message (SIG-8).
struct FrameError: Error, Hashable, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}
