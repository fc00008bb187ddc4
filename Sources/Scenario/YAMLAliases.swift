import Yams

/// How far the aliases of a scenario file may expand, so that a "billion laughs" file (anchors
/// whose lists alias the anchor before, nine levels deep) is refused before anything is
/// expanded (issue 13). Counted as if every alias were replaced by its anchored value, the
/// aliases inside that value included.
public enum YAMLAliasLimits {
    /// Alias uses in the fully expanded document. Reusing a strategy or a network block takes a
    /// few dozen; the ninth of nine levels of nine holds 48 million.
    public static let maximumExpansions = 1_000
    /// Values (scalars, lists, mappings) that alias uses add to the document: the largest
    /// bundled scenario has 404 in all; the ninth level of nine holds 435 million.
    public static let maximumExpandedNodes = 100_000
}

/// Counts what a composed document's aliases expand to, without expanding them, and throws at
/// the alias that goes over a `YAMLAliasLimits` limit.
///
/// Yams' composer resolves an alias to the node its anchor names, sharing that node's storage
/// (composing a bomb allocates nothing), and keeps only the anchor's position. So an alias shows
/// up in a walk in document order as a node the walk has already finished, at that node's
/// position; what each finished node expands to is remembered, which keeps the walk linear.
struct YAMLAliasCheck {
    let text: String
    let file: String
    private var finished: [NodeKey: Expansion] = [:]
    private var usesOfAnchor: [NodeKey: Int] = [:]
    private var addedByAliases = Expansion(nodes: 0, aliases: 0)

    private struct Expansion {
        var nodes: Int
        var aliases: Int

        static func += (lhs: inout Expansion, rhs: Expansion) {
            lhs.nodes += rhs.nodes
            lhs.aliases += rhs.aliases
        }
    }

    /// A node by where it starts and its shape: unique among the nodes of one document.
    private struct NodeKey: Hashable {
        var line: Int
        var column: Int
        var shape: Int

        init(_ node: Node) {
            line = node.mark?.line ?? 0
            column = node.mark?.column ?? 0
            switch node {
            case .scalar, .alias: shape = -1
            case .sequence(let items): shape = 2 * items.count
            case .mapping(let pairs): shape = 2 * pairs.count + 1
            }
        }
    }

    private init(text: String, file: String) {
        self.text = text
        self.file = file
    }

    /// Throws a `ScenarioError` at the first alias that takes the document composed from
    /// `text` over a limit.
    static func check(_ root: Node, text: String, file: String) throws {
        var check = YAMLAliasCheck(text: text, file: file)
        _ = try check.walk(root)
    }

    private mutating func walk(_ node: Node) throws -> Expansion {
        let key = NodeKey(node)
        if let anchored = finished[key] { return try aliasUse(of: node, key: key, expanding: anchored) }
        var expansion = Expansion(nodes: 1, aliases: 0)
        switch node {
        case .sequence(let items):
            for item in items { expansion += try walk(item) }
        case .mapping(let pairs):
            for (key, value) in pairs {
                expansion += try walk(key)
                expansion += try walk(value)
            }
        case .scalar, .alias:
            break
        }
        finished[key] = expansion
        return expansion
    }

    private mutating func aliasUse(of anchored: Node, key: NodeKey, expanding value: Expansion) throws -> Expansion {
        let use = Expansion(nodes: value.nodes, aliases: value.aliases + 1)
        let occurrence = usesOfAnchor[key, default: 0]
        usesOfAnchor[key] = occurrence + 1
        addedByAliases += use
        if addedByAliases.aliases > YAMLAliasLimits.maximumExpansions {
            throw error(at: anchored, occurrence: occurrence, "makes more than \(YAMLAliasLimits.maximumExpansions) alias expansions (an alias counts again wherever the value around it is used); this limit stops YAML alias bombs")
        }
        if addedByAliases.nodes > YAMLAliasLimits.maximumExpandedNodes {
            throw error(at: anchored, occurrence: occurrence, "expands to more than \(YAMLAliasLimits.maximumExpandedNodes) values in all; this limit stops YAML alias bombs")
        }
        return use
    }

    /// The error at the alias itself when it can be found, else at its anchor.
    private func error(at anchored: Node, occurrence: Int, _ problem: String) -> ScenarioError {
        let anchorLine = anchored.mark?.line ?? 1
        let anchorColumn = anchored.mark?.column ?? 1
        let locator = AliasLocator(text: text)
        guard let anchorMark = anchored.mark, let name = locator.anchorName(at: anchorMark) else {
            return ScenarioError(file: file, line: anchorLine, column: anchorColumn, message: "an alias of the value here \(problem)")
        }
        guard let mark = locator.alias(occurrence, ofAnchorAt: anchorMark, named: name) else {
            return ScenarioError(file: file, line: anchorLine, column: anchorColumn, message: "an alias of &\(name) (defined here) \(problem)")
        }
        return ScenarioError(file: file, line: mark.line, column: mark.column, message: "alias *\(name) \(problem)")
    }
}

/// Finds where an alias stands in the text. libyaml reports an alias's own position only when
/// the alias names no anchor, so the anchor is renamed (same length, with a letter the text
/// does not use, so that no position moves) and the text composed again: the composer stops at
/// the first alias of the old name. That alias is renamed in turn until the wanted one is
/// reached. Used only to report an error; gives nil when the text defeats it (an earlier anchor
/// of the same name, line breaks other than LF).
struct AliasLocator {
    private let lines: [[Unicode.Scalar]]
    private let unusedLetter: Unicode.Scalar?

    init(text: String) {
        lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
        let used = Set(text.unicodeScalars)
        unusedLetter = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".unicodeScalars.first { !used.contains($0) }
    }

    /// The anchor's name, read from the node's properties at its mark.
    func anchorName(at mark: Mark) -> String? {
        guard let start = anchorNameStart(at: mark) else { return nil }
        let name = name(in: lines[mark.line - 1], from: start)
        return name.isEmpty ? nil : name
    }

    /// The position of alias number `occurrence` (from 0, in document order) of the anchor.
    func alias(_ occurrence: Int, ofAnchorAt anchorMark: Mark, named name: String) -> Mark? {
        guard let letter = unusedLetter, let anchorStart = anchorNameStart(at: anchorMark) else { return nil }
        var probe = lines
        let renamed = Array(repeating: letter, count: name.unicodeScalars.count)
        probe[anchorMark.line - 1].replaceSubrange(anchorStart..<anchorStart + renamed.count, with: renamed)
        for found in 0...occurrence {
            guard let mark = firstUndefinedAlias(in: probe), let aliasStart = aliasNameStart(at: mark, in: probe),
                  self.name(in: probe[mark.line - 1], from: aliasStart) == name else { return nil }
            if found == occurrence { return mark }
            probe[mark.line - 1].replaceSubrange(aliasStart..<aliasStart + renamed.count, with: renamed)
        }
        return nil
    }

    /// Where the first alias naming no anchor stands, when composing stops at one.
    private func firstUndefinedAlias(in probe: [[Unicode.Scalar]]) -> Mark? {
        var text = String.UnicodeScalarView()
        for (number, line) in probe.enumerated() {
            if number > 0 { text.append("\n") }
            text.append(contentsOf: line)
        }
        do {
            _ = try Yams.compose(yaml: String(text))
            return nil
        } catch YamlError.composer(_, "found undefined alias", let mark, _) {
            return mark
        } catch {
            return nil
        }
    }

    /// The index just after the `&` of the properties at `mark` (`&name`, or `!tag &name`).
    private func anchorNameStart(at mark: Mark) -> Int? {
        guard let line = line(mark.line, in: lines), line.indices.contains(mark.column - 1) else { return nil }
        var index = mark.column - 1
        if line[index] == "!" {
            while index < line.count && line[index] != " " && line[index] != "\t" { index += 1 }
            while index < line.count && (line[index] == " " || line[index] == "\t") { index += 1 }
        }
        return index < line.count && line[index] == "&" ? index + 1 : nil
    }

    /// The index just after the `*` of the alias at `mark`.
    private func aliasNameStart(at mark: Mark, in probe: [[Unicode.Scalar]]) -> Int? {
        guard let line = line(mark.line, in: probe), line.indices.contains(mark.column - 1), line[mark.column - 1] == "*" else { return nil }
        return mark.column
    }

    private func line(_ number: Int, in text: [[Unicode.Scalar]]) -> [Unicode.Scalar]? {
        text.indices.contains(number - 1) ? text[number - 1] : nil
    }

    /// An anchor or alias name: everything up to white space or a flow indicator.
    private func name(in line: [Unicode.Scalar], from start: Int) -> String {
        var name = String.UnicodeScalarView()
        for scalar in line[start...] {
            if scalar == " " || scalar == "\t" || scalar == "\r" || ",[]{}".unicodeScalars.contains(scalar) { break }
            name.append(scalar)
        }
        return String(name)
    }
}
