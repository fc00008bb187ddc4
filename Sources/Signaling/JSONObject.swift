/// A JSON object as an ordered list of members (SIG-2, SIG-4).
///
/// Members stay in the order they were written or inserted, so re-encoding a parsed object
/// gives the same bytes; keys are unique (the parser rejects duplicates, setting an existing
/// key replaces its value in place). Equality compares members in order.
public struct JSONObject: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    /// One `"key": value` member.
    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in stored order.
    public private(set) var members: [Member]

    /// An empty object.
    public init() { members = [] }

    /// An object from pairs in order; a repeated key replaces the earlier value in place.
    public init(_ pairs: [(String, JSONValue)]) {
        members = []
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// Members already known to have unique keys (the parser checked them).
    init(uniqueMembers: [Member]) { members = uniqueMembers }

    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    /// The value stored under `key`; setting `nil` removes the member, setting a new key appends.
    public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            let index = members.firstIndex(where: { $0.key == key })
            switch (index, newValue) {
            case (let index?, let value?): members[index].value = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append(Member(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// The keys in stored order.
    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
}
