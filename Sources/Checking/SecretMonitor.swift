import Simulation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StageCore
import StageWorld

/// SIG-2, TOK-2: no secret leaves its owner. A participant's token (its signature: the part
/// that lets anyone who holds it join as that participant), every token it exchanges to, and
/// the `metadata` it sends with `connect` (for the service only; `notifyMetadata` is what
/// goes to the others) never appear in a frame sent to another participant.
///
/// Metadata is judged when it is a JSON object or array of at least 8 characters that is not
/// also public (part of some participant's `notifyMetadata`): a bare string or number could
/// occur in a frame by coincidence.
public struct SecretMonitor: InvariantMonitor {
    public var name: String { "no-secret-leaves-its-owner" }
    public var summary: String { "no token and no private connect metadata of a participant appears in a frame sent to another participant" }
    public var rules: [String] { ["SIG-2", "TOK-2"] }

    /// A text only its owners may receive, with its UTF-8 bytes for the search.
    struct Secret: Hashable {
        var owner: String
        var text: String
        var what: String
        var bytes: [UInt8]

        init(owner: String, text: String, what: String) {
            (self.owner, self.text, self.what) = (owner, text, what)
            bytes = Array(text.utf8)
        }
    }

    private var secrets: [Secret] = [] {
        didSet { for position in oldValue.count..<max(secrets.count, oldValue.count) { prefixes.insert(secrets[position].bytes, at: position) } }
    }
    private var prefixes = SecretPrefixes()
    private var collected = false
    private var recentSearches = RecentFrameSearches()

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        if !collected {
            collected = true
            secrets = Self.declaredSecrets(world)
        }
        switch event.kind {
        case .hostCall(.exchangeToken(let token)):
            if let text = Self.tokenSecret(token) { secrets.append(Secret(owner: event.observer, text: text, what: "exchanged token")) }
            return []
        case .delivered(_, let frame), .lost(let frame), .discarded(let frame), .duplicate(let frame), .heldForOrder(let frame),
             .protocolError(let frame, _):
            guard event.observer != "server", let leak = leaked(into: frame, receiver: event.observer) else { return [] }
            return [violation(event, index: index, "a frame to \(event.observer) carries the \(leak.what) of \(leak.owner)")]
        default:
            return []
        }
    }

    /// The first secret (in list order) of someone other than `receiver` that `frame` contains
    /// (a secret the receiver holds too, such as a shared token, is not a leak).
    private mutating func leaked(into frame: String, receiver: String) -> Secret? {
        for position in secretsFound(in: frame) where secrets[position].owner != receiver {
            let text = secrets[position].text
            if !secrets.contains(where: { $0.owner == receiver && $0.text == text }) { return secrets[position] }
        }
        return nil
    }

    /// The positions (in list order) of every secret `frame` contains. One pass over the frame
    /// finds every candidate (`SecretPrefixes`), memcmp confirms it; a frame searched lately
    /// with the same secrets (a broadcast's copy to the next participant, a retransmission, a
    /// duplicate) is not searched again.
    private mutating func secretsFound(in frame: String) -> [Int] {
        if let known = recentSearches.found(in: frame, secretCount: secrets.count) { return known }
        var frame = frame
        var found: [Int] = []
        frame.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            prefixes.forEachCandidate(in: bytes) { position, offset in
                let secret = secrets[position]
                guard offset + secret.bytes.count <= bytes.count, memcmp(base + offset, secret.bytes, secret.bytes.count) == 0 else { return }
                found.append(position)
            }
        }
        found = Array(Set(found)).sorted()
        recentSearches.remember(found, in: frame, secretCount: secrets.count)
        return found
    }

    /// Every client's join token and private connect metadata.
    static func declaredSecrets(_ world: World) -> [Secret] {
        let publicTexts = world.clients.compactMap { $0.config.connectMetadata.notifyMetadata.map { String(describing: $0) } }
        return world.clients.flatMap { client -> [Secret] in
            var secrets = tokenSecret(client.token).map { [Secret(owner: client.name, text: $0, what: "token")] } ?? []
            if let metadata = client.config.connectMetadata.metadata.map({ String(describing: $0) }),
               metadata.count >= 8, metadata.first == "{" || metadata.first == "[",
               !publicTexts.contains(where: { $0.contains(metadata) }) {
                secrets.append(Secret(owner: client.name, text: metadata, what: "private connect metadata"))
            }
            return secrets
        }
    }

    /// A token's signature segment, or a token that is not a JWT as a whole, when it is long
    /// enough (16 bytes) not to occur by chance. Dots are found in the UTF-8 bytes: splitting
    /// the text into characters cost more than the whole search of a frame.
    static func tokenSecret(_ token: String) -> String? {
        let dots = token.utf8.indices.filter { token.utf8[$0] == UInt8(ascii: ".") }
        let text = dots.count == 2 ? String(token[token.utf8.index(after: dots[1])...]) : token
        return text.utf8.count >= 16 ? text : nil
    }

    public static var keyReads: WorldReads { [] }

    /// Writes nothing: the secrets are a function of the world. The declared ones come from
    /// the initial world (collected at the first event; before it there is nothing to judge),
    /// and the exchanged ones from the `exchangeToken` host calls taken, which the world's
    /// pending host calls record (each participant's calls run in script order). Their order
    /// only picks which leak a report names.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {}
}

/// The last frames the secret monitor searched, each with the secrets found in it and how many
/// secrets there were. A frame is known by the address of its text's storage, which every copy
/// of one frame shares; each entry keeps its text, so no other text can take that address
/// while the entry lasts. Texts stored inline (15 bytes or fewer) have no such address and
/// are not remembered.
struct RecentFrameSearches: Sendable {
    private struct Search: Sendable {
        var frame: String
        var address: UInt
        var secretCount: Int
        var found: [Int]
    }

    private var searches: [Search] = []
    private var next = 0
    private static let capacity = 16

    /// What an earlier search of this very text found, if it searched as many secrets.
    func found(in frame: String, secretCount: Int) -> [Int]? {
        guard let address = Self.address(of: frame) else { return nil }
        return searches.first { $0.address == address && $0.secretCount == secretCount }?.found
    }

    mutating func remember(_ found: [Int], in frame: String, secretCount: Int) {
        guard let address = Self.address(of: frame) else { return }
        let search = Search(frame: frame, address: address, secretCount: secretCount, found: found)
        if searches.count < Self.capacity { searches.append(search) } else { searches[next] = search }
        next = (next + 1) % Self.capacity
    }

    private static func address(of frame: String) -> UInt? {
        guard frame.utf8.count > 15 else { return nil }
        return frame.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? nil
    }
}
