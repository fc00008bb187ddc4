/// A monitor's record of each client, by client index, absent until set: read for every
/// client at every state key (and, for some, at every step) by index, so no client's name is
/// hashed. Client indices are fixed for a run (`WorldConfig.clients`), one per name.
struct ClientIndexed<Value: Sendable>: Sendable {
    private var values: [Value?] = []

    subscript(client: Int) -> Value? {
        get { values.indices.contains(client) ? values[client] : nil }
        set {
            if values.count <= client { values += Array(repeating: nil, count: client + 1 - values.count) }
            values[client] = newValue
        }
    }

    /// The clients with a value, ascending, with it.
    var entries: some Sequence<(client: Int, value: Value)> {
        values.indices.lazy.compactMap { client in values[client].map { (client, $0) } }
    }
}
