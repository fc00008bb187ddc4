import Signaling
import Yams

extension YAMLNode {
    /// Any YAML value as a JSON value (SIG-2..4): mappings keep their key order, plain scalars
    /// that YAML reads as null, booleans or numbers become those, quoted scalars stay strings.
    func jsonValue(_ what: String) throws -> JSONValue {
        switch node {
        case .scalar(let scalar):
            return scalarJSON(scalar)
        case .sequence(let sequence):
            return .array(try sequence.map { try YAMLNode(node: $0, file: file).jsonValue(what) })
        case .mapping(let mapping):
            var object = JSONObject()
            for (key, value) in mapping {
                guard let name = key.scalar?.string else { throw YAMLNode(node: key, file: file).error("\(what) keys must be strings") }
                object[name] = try YAMLNode(node: value, file: file).jsonValue(what)
            }
            return .object(object)
        case .alias:
            throw error("\(what) may not use YAML aliases")
        }
    }

    private func scalarJSON(_ scalar: Node.Scalar) -> JSONValue {
        guard scalar.style == .plain else { return .string(scalar.string) }
        switch scalar.string {
        case "null", "~", "": return .null
        case "true": return .bool(true)
        case "false": return .bool(false)
        default: return JSONNumber(text: scalar.string).map(JSONValue.number) ?? .string(scalar.string)
        }
    }
}
