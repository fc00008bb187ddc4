/// A semantic version `major.minor.patch`, compared numerically.
public struct SemanticVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int

    public init(_ major: Int, _ minor: Int, _ patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses `1.37.0` (a missing patch or minor reads as 0); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        let numbers = parts.compactMap { Int($0) }.filter { $0 >= 0 }
        guard numbers.count == parts.count else { return nil }
        self.init(numbers[0], numbers.count > 1 ? numbers[1] : 0, numbers.count > 2 ? numbers[2] : 0)
    }

    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    public var description: String { "\(major).\(minor).\(patch)" }
}

/// The SDK an observer runs, which decides what metadata updates it can see (VIS-1..4).
public enum SDKKind: Hashable, Sendable, CustomStringConvertible {
    case mobile(SemanticVersion)
    case web(SemanticVersion)
    /// Server-side composition: a server observer, no renderer callbacks of its own.
    case composition

    /// The first mobile version with participantMetadataDidUpdate (VIS-1).
    public static let firstMobileWithMetadataEvent = SemanticVersion(1, 37, 0)

    public var hasMetadataUpdateEvent: Bool {
        if case .mobile(let version) = self { return version >= SDKKind.firstMobileWithMetadataEvent }
        return false
    }

    /// `mobile 1.37.0`, `web 1.20.0`, `composition`: the scenario spelling.
    public var description: String {
        switch self {
        case .mobile(let version): "mobile \(version)"
        case .web(let version): "web \(version)"
        case .composition: "composition"
        }
    }

    /// Parses the scenario spelling; nil with no match.
    public init?(parsing text: String) {
        let words = text.split(separator: " ").map(String.init)
        switch (words.first, words.count) {
        case ("composition", 1): self = .composition
        case ("mobile", 2): guard let version = SemanticVersion(parsing: words[1]) else { return nil }; self = .mobile(version)
        case ("web", 2): guard let version = SemanticVersion(parsing: words[1]) else { return nil }; self = .web(version)
        default: return nil
        }
    }
}
