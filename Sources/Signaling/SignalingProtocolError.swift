/// Why an incoming signaling frame could not be delivered as a message (SIG-8). Each case
/// renders as one log line; none of them is fatal to the connection.
public enum SignalingProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text frame is not valid JSON.
    case notJSON(JSONParseError)
    /// The JSON is valid but not an object; carries the kind found ("array", "string", ...).
    case notAnObject(found: String)
    /// The object has no `type` member.
    case missingType
    /// `type` is present but not a string; carries the kind found.
    case typeNotAString(found: String)
    /// `type` names no known message; carries the type text.
    case unknownType(String)
    /// A required member is absent.
    case missingField(type: String, field: String)
    /// A member has the wrong JSON kind.
    case wrongFieldType(type: String, field: String, expected: String, found: String)
    /// A number member lies outside its range; carries the number's text.
    case outOfRange(type: String, field: String, value: String, range: ClosedRange<Int>)
    /// A binary frame arrived; Sora signaling only uses text frames.
    case binaryFrame(byteCount: Int)
    /// A message that may not arrive at this side (e.g. a connect at a client).
    case wrongDirection(type: String, side: SignalingSide)

    public var description: String {
        switch self {
        case .notJSON(let error): "signaling frame is not JSON: \(error)"
        case .notAnObject(let found): "signaling frame is a JSON \(found), expected an object"
        case .missingType: "signaling message has no \"type\""
        case .typeNotAString(let found): "signaling message \"type\" is a \(found), expected a string"
        case .unknownType(let type): "unknown signaling message type \"\(type)\""
        case .missingField(let type, let field): "signaling message \"\(type)\" is missing \"\(field)\""
        case .wrongFieldType(let type, let field, let expected, let found):
            "signaling message \"\(type)\" field \"\(field)\" is a \(found), expected \(expected)"
        case .outOfRange(let type, let field, let value, let range):
            "signaling message \"\(type)\" field \"\(field)\" is \(value), outside \(range)"
        case .binaryFrame(let count): "binary signaling frame (\(count) bytes) ignored: signaling uses text frames only"
        case .wrongDirection(let type, let side): "signaling message \"\(type)\" may not arrive at the \(side.rawValue)"
        }
    }
}
