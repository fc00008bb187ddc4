/// A coding key built at run time: array indices, `super`, and the keys of a `JSONValue`
/// object when it is encoded with another coder (SIG-3).
struct AnyCodingKey: CodingKey, Hashable, Sendable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    init(index: Int) { self.init(intValue: index) }

    static let superKey = AnyCodingKey(stringValue: "super")
}
