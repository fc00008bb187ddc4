import Signaling
import Simulation

/// Type-aware damage to a JSON document: one value somewhere in the tree is removed, replaced
/// by a value of another kind or a boundary number, or a string member has a hostile piece
/// spliced into it (an SDP line with a huge number, a control character). The result is still
/// JSON, so it reaches the receiver's field checks rather than stopping at the parser.
struct JSONMutator {
    /// Replacement values of every kind, with numbers at the edges of every width.
    static func hostileValue(_ random: inout SplitMix64) -> JSONValue {
        switch random.below(9) {
        case 0: .null
        case 1: .bool(random.chance(0.5))
        case 2: .string(random.pick(["", "x", "\u{0}", "a=x-stagesim-layer:h 1 9223372036854775807", "NaN", "🙂", String(repeating: "a", count: 5_000)]) ?? "")
        case 3: .array([])
        case 4: .object(JSONObject())
        case 5: .array([.null, .number(JSONNumber(-1)), .string("")])
        case 6: .object(["event": .string(random.pick(eventNames) ?? "x")])
        default: .number(JSONNumber(text: random.pick(TextMutator.boundaryNumbers) ?? "0") ?? JSONNumber(0))
        }
    }

    /// Stage event names a push may carry, so a mutation can turn one event into another.
    static let eventNames = [
        "joinRejected", "publishAccepted", "publishRejected", "participantPublished", "participantUnpublished",
        "exchangeAccepted", "exchangeRejected", "ejected", "participantInterrupted", "participantReconnected", "unknown",
    ]

    /// Applies one or two mutations at random places in `value`; `identifiers` (participant
    /// ids, names) may replace any string, so a frame can come to name someone else.
    static func mutate(_ value: JSONValue, identifiers: [String], random: inout SplitMix64) -> JSONValue {
        var result = value
        for _ in 0...random.below(2) {
            let paths = allPaths(result)
            guard let path = random.pick(paths) else { return hostileValue(&random) }
            result = replacing(result, at: path[...]) { old in mutatedNode(old, identifiers: identifiers, random: &random) }
        }
        return result
    }

    private static func mutatedNode(_ old: JSONValue, identifiers: [String], random: inout SplitMix64) -> JSONValue? {
        switch random.below(5) {
        case 0: return nil
        case 4 where old.stringValue != nil: return .string(random.pick(identifiers) ?? "")
        case 1:
            guard case .string(let text) = old else { return hostileValue(&random) }
            let splices = ["\r\na=x-stagesim-layer:h 1 9223372036854775807", "\r\na=x-stagesim-video:fallback=maybe", "\r\n", "\u{0}"]
            return .string(TextMutator.mutate(text, splices: splices, random: &random))
        default: return hostileValue(&random)
        }
    }

    /// Every path from the root to a node: object keys and array indices.
    private static func allPaths(_ value: JSONValue) -> [[PathStep]] {
        var paths: [[PathStep]] = []
        func visit(_ node: JSONValue, _ prefix: [PathStep]) {
            if !prefix.isEmpty { paths.append(prefix) }
            switch node {
            case .object(let object): for member in object.members { visit(member.value, prefix + [.key(member.key)]) }
            case .array(let items): for (index, item) in items.enumerated() { visit(item, prefix + [.index(index)]) }
            default: break
            }
        }
        visit(value, [])
        return paths
    }

    private enum PathStep { case key(String), index(Int) }

    /// `value` with the node at `path` replaced by `transform` of it (nil removes it).
    private static func replacing(_ value: JSONValue, at path: ArraySlice<PathStep>, _ transform: (JSONValue) -> JSONValue?) -> JSONValue {
        guard let step = path.first else { return transform(value) ?? .null }
        let rest = path.dropFirst()
        switch (value, step) {
        case (.object(var object), .key(let key)):
            guard let child = object[key] else { return value }
            object[key] = rest.isEmpty ? transform(child) : replacing(child, at: rest, transform)
            return .object(object)
        case (.array(var items), .index(let index)) where items.indices.contains(index):
            if rest.isEmpty, let replacement = transform(items[index]) { items[index] = replacement }
            else if rest.isEmpty { items.remove(at: index) }
            else { items[index] = replacing(items[index], at: rest, transform) }
            return .array(items)
        default:
            return value
        }
    }
}
