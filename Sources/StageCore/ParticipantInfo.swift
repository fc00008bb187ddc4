/// Server-provided attributes of a participant: string keys to string values, kept sorted by
/// key so that two equal attribute sets are equal values with one byte form (TOK-2, NET-1).
public struct Attributes: Hashable, Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public private(set) var pairs: [(key: String, value: String)]

    public init(_ pairs: [(String, String)]) {
        var sorted: [(key: String, value: String)] = []
        for (key, value) in pairs {
            if let index = sorted.firstIndex(where: { $0.key == key }) {
                sorted[index].value = value
            } else {
                sorted.append((key: key, value: value))
            }
        }
        self.pairs = sorted.sorted { $0.key < $1.key }
    }

    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    public subscript(key: String) -> String? { pairs.first(where: { $0.key == key })?.value }

    public var isEmpty: Bool { pairs.isEmpty }

    /// Total UTF-8 size of keys and values: TOK-2 caps it at 1 KB.
    public var byteCount: Int { pairs.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count } }

    public static func == (lhs: Attributes, rhs: Attributes) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for pair in pairs {
            hasher.combine(pair.key)
            hasher.combine(pair.value)
        }
    }

    public var description: String {
        "{" + pairs.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + "}"
    }
}

/// The pairs in key order, each with `key` and `value`, as the IVS page iterates a
/// participant's attributes (`for attribute in participant.attributes { attribute.key ... }`).
extension Attributes: Sequence {
    public func makeIterator() -> IndexingIterator<[(key: String, value: String)]> { pairs.makeIterator() }
}

/// What a token allows its participant to do (TOK-2 `capabilities`).
public struct Capabilities: Hashable, Sendable, CustomStringConvertible {
    public var canPublish: Bool
    public var canSubscribe: Bool

    public init(canPublish: Bool = true, canSubscribe: Bool = true) {
        self.canPublish = canPublish
        self.canSubscribe = canSubscribe
    }

    public var description: String {
        [canPublish ? "publish" : nil, canSubscribe ? "subscribe" : nil].compactMap { $0 }.joined(separator: "+")
    }
}

/// The SDK's ParticipantInfo: who a participant is, as renderers and strategies see it.
public struct ParticipantInfo: Hashable, Sendable {
    public var participantId: String
    public var userId: String
    public var isLocal: Bool
    public var attributes: Attributes
    public var capabilities: Capabilities

    public init(
        participantId: String, userId: String = "", isLocal: Bool = false,
        attributes: Attributes = [:], capabilities: Capabilities = Capabilities()
    ) {
        self.participantId = participantId
        self.userId = userId
        self.isLocal = isLocal
        self.attributes = attributes
        self.capabilities = capabilities
    }
}
