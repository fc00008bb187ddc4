import Signaling
import StageCore

/// Reads one JSON object of a stage frame strictly (SIG-8). A member the stage reads must be
/// present with its JSON kind: `null` or another kind is an error, never "absent" or a
/// default. Integers must be whole numbers within their `WireLimits` range, and participant ids
/// must be ids the service could have admitted (TOK-2). Members the stage does not read are
/// ignored. Every error names the member by its path, e.g. `push.data.publisher.created_ns`.
struct WireReader {
    let object: JSONObject
    let path: String

    init(_ value: JSONValue?, _ path: String) throws(FrameError) {
        guard let value else { throw FrameError("\(path) is missing") }
        guard case .object(let object) = value else { throw Self.wrongKind(path, value, "an object") }
        self.object = object
        self.path = path
    }

    /// The object member `key`, read the same way.
    func reader(_ key: String) throws(FrameError) -> WireReader { try WireReader(object[key], "\(path).\(key)") }

    func value(_ key: String) throws(FrameError) -> JSONValue {
        guard let value = object[key] else { throw FrameError("\(path).\(key) is missing") }
        return value
    }

    func string(_ key: String) throws(FrameError) -> String {
        let value = try value(key)
        guard case .string(let text) = value else { throw Self.wrongKind("\(path).\(key)", value, "a string") }
        return text
    }

    /// A member that may be absent; when present it must be a string.
    func optionalString(_ key: String) throws(FrameError) -> String? {
        object[key] == nil ? nil : try string(key)
    }

    func bool(_ key: String) throws(FrameError) -> Bool {
        let value = try value(key)
        guard case .bool(let flag) = value else { throw Self.wrongKind("\(path).\(key)", value, "a boolean") }
        return flag
    }

    /// A whole number within `range` (`5` and `5.0` alike; `5.5` or `1e30` are errors).
    func int(_ key: String, in range: ClosedRange<Int>) throws(FrameError) -> Int {
        let value = try value(key)
        guard case .number(let number) = value else { throw Self.wrongKind("\(path).\(key)", value, "an integer") }
        guard let int = number.intValue else { throw FrameError("\(path).\(key) \(number.text.prefix(40)) is not a whole number in \(range)") }
        guard range.contains(int) else { throw WireLimits.outOfRange("\(path).\(key)", number.text, range) }
        return int
    }

    func array(_ key: String) throws(FrameError) -> [JSONValue] {
        let value = try value(key)
        guard case .array(let items) = value else { throw Self.wrongKind("\(path).\(key)", value, "an array") }
        return items
    }

    /// A participant id (`jti`, TOK-2: `[A-Za-z0-9_-]+`).
    func participantId(_ key: String) throws(FrameError) -> String {
        try Self.participantId(try string(key), "\(path).\(key)")
    }

    /// `id` when it is a participant id the service could have admitted (TOK-2).
    static func participantId(_ id: String, _ path: String) throws(FrameError) -> String {
        guard TokenClaims.isValidParticipantId(id) else { throw FrameError("\(path) \(TokenCodec.quoted(id)) is not a participant id ([A-Za-z0-9_-]+)") }
        return id
    }

    private static func wrongKind(_ path: String, _ value: JSONValue, _ expected: String) -> FrameError {
        let article = value.kindName.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        return FrameError("\(path) is \(article) \(value.kindName), expected \(expected)")
    }
}
