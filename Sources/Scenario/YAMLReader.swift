import Yams

/// A position-aware reader over a composed YAML node: every accessor that fails throws a
/// `ScenarioError` at the node's line and column, and mappings reject keys nobody read.
struct YAMLNode {
    let node: Node
    let file: String

    var line: Int { node.mark?.line ?? 1 }
    var column: Int { node.mark?.column ?? 1 }

    func error(_ message: String) -> ScenarioError {
        ScenarioError(file: file, line: line, column: column, message: message)
    }

    func string(_ what: String) throws -> String {
        guard let scalar = node.scalar else { throw error("\(what) must be a string") }
        return scalar.string
    }

    func bool(_ what: String) throws -> Bool {
        switch try string(what) {
        case "true", "yes": return true
        case "false", "no": return false
        default: throw error("\(what) must be true or false")
        }
    }

    func int(_ what: String, range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(try string(what)), range.contains(value) else {
            throw error("\(what) must be a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    func uint64(_ what: String) throws -> UInt64 {
        guard let value = UInt64(try string(what)) else { throw error("\(what) must be a whole number from 0 to 18446744073709551615") }
        return value
    }

    func probability(_ what: String) throws -> Double {
        guard let value = Double(try string(what)), (0...1).contains(value) else {
            throw error("\(what) must be a probability from 0 to 1")
        }
        return value
    }

    func oneOf<Choice: RawRepresentable & CaseIterable>(_ what: String, _ type: Choice.Type) throws -> Choice where Choice.RawValue == String {
        let text = try string(what)
        guard let value = Choice(rawValue: text) else {
            throw error("unknown \(what) '\(text)'; expected one of: \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    func sequence(_ what: String) throws -> [YAMLNode] {
        if node.scalar != nil, node.scalar?.string == "", node.tag.description.hasSuffix("null") { return [] }
        guard let items = node.sequence else { throw error("\(what) must be a list") }
        return items.map { YAMLNode(node: $0, file: file) }
    }

    func mapping(_ what: String) throws -> YAMLMapping {
        guard let mapping = node.mapping else { throw error("\(what) must be a mapping of keys to values") }
        return YAMLMapping(node: self, pairs: mapping.map { (key: YAMLNode(node: $0.key, file: file), value: YAMLNode(node: $0.value, file: file)) })
    }

    /// A flat mapping of string keys to string values (attributes).
    func stringMap(_ what: String) throws -> [(String, String)] {
        let map = try mapping(what)
        return try map.pairs.map { pair in (try pair.key.string("\(what) key"), try pair.value.string("\(what) value")) }
    }
}

/// A YAML mapping whose keys are checked: `finish` rejects every key that was not asked for.
struct YAMLMapping {
    let node: YAMLNode
    let pairs: [(key: YAMLNode, value: YAMLNode)]
    private var used: Set<String> = []

    init(node: YAMLNode, pairs: [(key: YAMLNode, value: YAMLNode)]) {
        self.node = node
        self.pairs = pairs
    }

    mutating func optional(_ key: String) -> YAMLNode? {
        used.insert(key)
        return pairs.first(where: { $0.key.node.scalar?.string == key })?.value
    }

    mutating func required(_ key: String, in what: String) throws -> YAMLNode {
        guard let value = optional(key) else { throw node.error("\(what) needs '\(key)'") }
        return value
    }

    /// Throws at the first key that no accessor asked for, naming the allowed keys.
    func finish(_ what: String) throws {
        for pair in pairs {
            let key = try pair.key.string("a key")
            if !used.contains(key) {
                throw pair.key.error("unknown key '\(key)' in \(what); allowed: \(used.sorted().joined(separator: ", "))")
            }
        }
    }
}
