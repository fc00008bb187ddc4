import Foundation
import Yams

/// A line and column in scenario text, counted as libyaml counts them so that the loader's
/// positions and Yams' marks agree: columns in Unicode scalars from 1, lines broken by LF, CR,
/// CR LF, NEL, LS and PS.
public struct TextPosition: Equatable, Sendable {
    public private(set) var line = 1
    public private(set) var column = 1
    private var afterCarriageReturn = false

    mutating func advance(over scalar: Unicode.Scalar) {
        defer { afterCarriageReturn = scalar == "\r" }
        switch scalar {
        case "\n" where afterCarriageReturn:
            return
        case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
            line += 1
            column = 1
        default:
            column += 1
        }
    }

    /// The position of `index` (a scalar boundary) in `text`.
    public init(of index: String.Index, in text: String) {
        for scalar in text.unicodeScalars[..<index] { advance(over: scalar) }
    }

    init() {}
}

extension ScenarioLoader {
    /// The file's bytes as text. A byte that is not UTF-8 is reported at its line and column.
    static func text(of data: Data, path: String) throws -> String {
        var bytes = data.makeIterator()
        var decoder = UTF8()
        var position = TextPosition()
        var offset = data.startIndex
        while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let scalar):
                position.advance(over: scalar)
                offset += UTF8.width(scalar)
            case .emptyInput:
                return String(decoding: data, as: UTF8.self)
            case .error:
                let byte = "0x" + String(data[offset], radix: 16, uppercase: true)
                throw ScenarioError(file: path, line: position.line, column: position.column, message: "byte \(byte) is not UTF-8 text")
            }
        }
    }

    /// A Yams error as a scenario error at its line and column.
    static func syntaxError(_ error: YamlError, text: String, path: String) -> ScenarioError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            let end = TextPosition(of: text.endIndex, in: text)
            guard (mark.line, mark.column) < (end.line, end.column) else {
                return ScenarioError(file: path, line: end.line, column: end.column, message: "YAML syntax at the end of the file: \(problem)")
            }
            return ScenarioError(file: path, line: mark.line, column: mark.column, message: "YAML syntax: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ScenarioError(file: path, line: context.mark.line, column: context.mark.column,
                                 message: "duplicate keys \(duplicates.joined(separator: ", "))")
        case .reader(let problem, let offset, let value, let text):
            return readerError(problem, characterOffset: offset, value: value, text: text, path: path)
        default:
            return ScenarioError(file: path, line: 1, column: 1, message: "YAML: \(error)")
        }
    }

    /// libyaml's reader refuses characters YAML does not allow (control characters, U+FFFE,
    /// U+FFFF); Yams gives their offset in Characters from the start of the text.
    private static func readerError(_ problem: String, characterOffset: Int?, value: Int32, text: String, path: String) -> ScenarioError {
        let index = characterOffset.flatMap { text.index(text.startIndex, offsetBy: $0, limitedBy: text.endIndex) } ?? text.startIndex
        let position = TextPosition(of: index, in: text)
        let message: String
        if problem == "control characters are not allowed", value >= 0 {
            let code = String(value, radix: 16, uppercase: true)
            message = "control character U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) is not allowed; YAML allows tab, line breaks and printable characters"
        } else {
            message = "YAML: \(problem)"
        }
        return ScenarioError(file: path, line: position.line, column: position.column, message: message)
    }
}
