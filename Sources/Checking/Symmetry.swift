import StageCore
import StageWorld

/// Symmetry reduction for the model checker: participants that are interchangeable (equal
/// `ClientConfig`s but for name and token, same link, token shape and faults; only their
/// names differ) can swap roles
/// without changing what can happen, so a state and its images under every such swap are one
/// state. Each permutation renames participants and client indices in the canonical encoding;
/// a state's key is the smallest over the group, which is the same for every image.
public struct Symmetry: Sendable {
    /// One renaming: client `i` is written as client `clientIndexImages[i]`, names likewise.
    public struct Permutation: Sendable {
        public var clientIndexImages: [Int]
        public var nameImages: [String: String]
    }

    /// Names of the interchangeable participants, one list per class of two or more.
    public let classes: [[String]]
    /// Every permutation of the group, identity first.
    public let permutations: [Permutation]

    /// No reduction: only the identity.
    public static let none = Symmetry(classes: [], permutations: [Permutation(clientIndexImages: [], nameImages: [:])])

    private init(classes: [[String]], permutations: [Permutation]) {
        self.classes = classes
        self.permutations = permutations
    }

    /// The group of `world`'s interchangeable participants (judged on the initial world).
    public init(world: World) {
        var roles: [ClientRole: [Int]] = [:]
        for index in world.clients.indices {
            roles[ClientRole(world.clients[index], link: world.config.links[index], faults: world.config.faults), default: []].append(index)
        }
        let groups = roles.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
        var images: [[Int]] = [Array(world.clients.indices)]
        for group in groups {
            images = images.flatMap { base in Self.orderings(of: group).map { ordering in
                var image = base
                for (position, index) in group.enumerated() { image[index] = ordering[position] }
                return image
            } }
        }
        classes = groups.map { $0.map { world.clients[$0].name } }
        permutations = images.map { Self.permutation($0, world: world) }
    }

    private static func permutation(_ image: [Int], world: World) -> Permutation {
        var names: [String: String] = [:]
        for (index, target) in image.enumerated() where index != target {
            names[world.clients[index].name] = world.clients[target].name
            if let from = world.clients[index].claims?.participantId, let to = world.clients[target].claims?.participantId {
                names[from] = to
            }
        }
        return Permutation(clientIndexImages: image, nameImages: names)
    }

    /// Every ordering of `elements` (n! of them), in lexicographic order: ascending input first.
    static func orderings(of elements: [Int]) -> [[Int]] {
        guard let first = elements.first else { return [[]] }
        let rest = orderings(of: Array(elements.dropFirst()))
        return (0...rest[0].count).flatMap { position in
            rest.map { tail in
                var ordering = tail
                ordering.insert(first, at: position)
                return ordering
            }
        }.sorted { $0.lexicographicallyPrecedes($1) }
    }
}

/// What makes two clients interchangeable: their configurations apart from the name and the
/// token, their links, their tokens' claims apart from the participant id, and the faults
/// that name them (NET-2, SIG-6; by direction and count, without their times, which the
/// state key leaves out as well).
private struct ClientRole: Hashable {
    var config: ClientConfig
    var link: LinkConditions
    var claims: TokenClaims?
    var partitionDirections: [String]
    var keepaliveSilences: Int

    init(_ client: Client, link: LinkConditions, faults: FaultPlan) {
        config = client.config
        config.name = ""
        config.token = .raw("")
        partitionDirections = faults.partitions.filter { $0.clientName == client.name }.map(\.direction.rawValue).sorted()
        keepaliveSilences = faults.keepaliveSilences.count { $0.clientName == client.name }
        self.link = link
        claims = client.claims.map { claims in
            var anonymous = claims
            anonymous.participantId = ""
            return anonymous
        }
    }
}
