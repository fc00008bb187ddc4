import StageCore
import StageWorld

/// Symmetry reduction for the model checker: participants that are interchangeable (equal
/// `ClientConfig`s but for name and token, same link, token shape and faults; only their
/// names differ) can swap roles
/// without changing what can happen, so a state and its images under every such swap are one
/// state. A renaming maps participants and client indices in the canonical encoding; a
/// state's key is the smallest encoding over the group, which is the same for every image.
///
/// The smallest image is found without trying all n! renamings (Stateright's representative):
/// each interchangeable client is hashed with every name of its class written alike, clients
/// are ranked by that hash within their class, and only clients with equal hashes (ties) are
/// tried in every order. A renaming that fixes the state maps each client to one with the same
/// hash, so the tied orders see every image the state's stabilizer allows, and the orbit size
/// follows as |group| x (distinct images among the tied orders) / (tied orders).
public struct Symmetry: Sendable {
    /// One renaming: client `i` is written as client `clientIndexImages[i]`, names likewise.
    public struct Permutation: Sendable {
        public var clientIndexImages: [Int]
        public var nameImages: [String: String]

        /// The renaming that changes nothing.
        public static let identity = Permutation(clientIndexImages: [], nameImages: [:])
    }

    /// Names of the interchangeable participants, one list per class of two or more.
    public let classes: [[String]]
    /// The client indices of each class, ascending.
    let classIndices: [[Int]]
    /// The renaming that writes every member of a class as the class's first member: the
    /// encoding of a client under it does not depend on which member holds which role.
    let blurred: Permutation
    /// The size of the group: the product of the classes' factorials.
    public let groupSize: Int
    private let names: [String]
    private let participantIds: [String?]

    /// No reduction.
    public static let none = Symmetry(classIndices: [], names: [], participantIds: [])

    /// The group of `world`'s interchangeable participants (judged on the initial world).
    public init(world: World) {
        var roles: [ClientRole: [Int]] = [:]
        for index in world.clients.indices {
            roles[ClientRole(world.clients[index], link: world.config.links[index], faults: world.config.faults), default: []].append(index)
        }
        let groups = roles.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
        self.init(classIndices: groups, names: world.clients.map(\.name), participantIds: world.clients.map { $0.claims?.participantId })
    }

    private init(classIndices: [[Int]], names: [String], participantIds: [String?]) {
        self.classIndices = classIndices
        self.names = names
        self.participantIds = participantIds
        classes = classIndices.map { $0.map { names[$0] } }
        groupSize = classIndices.reduce(1) { size, group in size * (1...group.count).reduce(1, *) }
        var image = Array(names.indices)
        for group in classIndices { for index in group { image[index] = group[0] } }
        blurred = Self.permutation(image, names: names, participantIds: participantIds)
    }

    /// Whether the group is the identity alone (no interchangeable participants).
    public var isTrivial: Bool { classIndices.isEmpty }

    /// The renaming that writes client `i` as client `image[i]`, names and participant ids alike.
    func permutation(_ image: [Int]) -> Permutation {
        Self.permutation(image, names: names, participantIds: participantIds)
    }

    private static func permutation(_ image: [Int], names: [String], participantIds: [String?]) -> Permutation {
        var nameImages: [String: String] = [:]
        for (index, target) in image.enumerated() where index != target {
            nameImages[names[index]] = names[target]
            if let from = participantIds[index], let to = participantIds[target] { nameImages[from] = to }
        }
        return Permutation(clientIndexImages: image, nameImages: nameImages)
    }

    /// The renamings worth trying for a state whose clients' blurred hashes are `hashes`: each
    /// class's members in the order of their hashes, and every order of members whose hashes tie.
    func candidates(blurredHashes hashes: [UInt64]) -> [Permutation] {
        var images: [[Int]] = [Array(names.indices)]
        for group in classIndices {
            let ranked = group.sorted { (hashes[$0], $0) < (hashes[$1], $1) }
            var orders: [[Int]] = [[]]
            var start = 0
            while start < ranked.count {
                var end = start + 1
                while end < ranked.count && hashes[ranked[end]] == hashes[ranked[start]] { end += 1 }
                let tied = Self.orderings(of: Array(ranked[start..<end]))
                orders = orders.flatMap { prefix in tied.map { prefix + $0 } }
                start = end
            }
            images = images.flatMap { base in orders.map { order in
                var image = base
                for (rank, index) in order.enumerated() { image[index] = group[rank] }
                return image
            } }
        }
        return images.map(permutation)
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
