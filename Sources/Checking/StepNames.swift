/// The distinct observer names one step involved, in the order first seen: what the
/// end-of-step checks of `IdleLinkAgreementMonitor`, `PublishedMuteMonitor`,
/// `PublisherVideoMonitor` and `RendererPictureMonitor` walk. A step involves a handful of
/// clients, so a scan of the list costs less than hashing each event's name into a set.
struct StepNames: Sendable, Sequence {
    private var names: [String] = []

    /// Adds `name` unless the step already involved it.
    mutating func insert(_ name: String) {
        if names.last != name && !names.contains(name) { names.append(name) }
    }

    func contains(_ name: String) -> Bool { names.contains(name) }

    /// The names in ascending order; a step with one name sorts nothing.
    func sorted() -> [String] { names.count < 2 ? names : names.sorted() }

    var isEmpty: Bool { names.isEmpty }

    /// Forgets every name, keeping the storage for the next step.
    mutating func removeAll() { names.removeAll(keepingCapacity: true) }

    func makeIterator() -> IndexingIterator<[String]> { names.makeIterator() }
}
