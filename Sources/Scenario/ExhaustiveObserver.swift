/// An observer named under `exhaustive:`: every renderer callback and error-delegate report it
/// gets must be matched, in order, by an expectation (TCA `TestStore` style).
public struct ExhaustiveObserver: Hashable, Sendable {
    public var name: String
    /// The line of the `exhaustive:` entry that names it.
    public var line: Int

    public init(name: String, line: Int) {
        self.name = name
        self.line = line
    }
}
