import Simulation
import StageCore
import StageWorld

extension ScenarioLoader {
    /// A participant's token: `token: "<raw string>"` as is, or claims StageSim signs, from
    /// `userId`, `attributes`, `capabilities`, `tokenExpiresAt`, `tokenTopic`, `tokenResource`,
    /// `tokenJti`, `whipUrl`, `eventsUrl` and `tokenSignedBy` (TOK-1..3).
    static func participantToken(_ map: inout YAMLMapping, name: String, stageId: String) throws -> TokenSource {
        let claimKeys = ["userId", "attributes", "capabilities", "tokenExpiresAt", "tokenTopic", "tokenResource", "tokenJti", "whipUrl", "eventsUrl", "tokenSignedBy"]
        if let raw = map.optional("token") {
            if let clash = claimKeys.first(where: { map.optional($0) != nil }) {
                throw raw.error("'token' gives the raw token string; it cannot be combined with '\(clash)'")
            }
            return .raw(try raw.string("token"))
        }
        var claims = StageKeys.claims(participantId: name, stageId: stageId)
        if let value = map.optional("userId") { claims.userId = try value.string("userId") }
        if let value = map.optional("attributes") { claims.attributes = Attributes(try value.stringMap("attributes")) }
        if let value = map.optional("capabilities") { claims.capabilities = try capabilities(value) }
        if let value = map.optional("tokenExpiresAt") { claims.expiresAtSeconds = try seconds(value, "tokenExpiresAt") }
        if let value = map.optional("tokenTopic") { claims.topic = try value.string("tokenTopic") }
        if let value = map.optional("tokenResource") { claims.resource = try value.string("tokenResource") }
        if let value = map.optional("tokenJti") { claims.participantId = try value.string("tokenJti") }
        if let value = map.optional("whipUrl") { claims.whipURL = try value.string("whipUrl") }
        if let value = map.optional("eventsUrl") { claims.eventsURL = try value.string("eventsUrl") }
        let signer = try map.optional("tokenSignedBy")?.oneOf("tokenSignedBy", TokenSigner.self) ?? .app
        return .signed(claims, by: signer)
    }

    /// The `token:` of an exchangeToken step: a raw string, or a mapping that patches the
    /// participant's declared (join) token claims (`userId`, `attributes`, `capabilities`, `expiresAt`,
    /// `topic`, `resource`, `jti`, `whipUrl`, `eventsUrl`, `signedBy`, `issuedAt`); `iat` is the
    /// step's time unless `issuedAt` says otherwise.
    static func exchangedToken(_ node: YAMLNode) throws -> ExchangedToken {
        guard node.node.mapping != nil else { return .raw(try node.string("token")) }
        var map = try node.mapping("an exchanged token")
        var patch = ClaimsPatch()
        if let value = map.optional("userId") { patch.userId = try value.string("userId") }
        if let value = map.optional("attributes") { patch.attributes = Attributes(try value.stringMap("attributes")) }
        if let value = map.optional("capabilities") { patch.capabilities = try capabilities(value) }
        if let value = map.optional("expiresAt") { patch.expiresAtSeconds = try seconds(value, "expiresAt") }
        if let value = map.optional("issuedAt") { patch.issuedAtSeconds = try seconds(value, "issuedAt") }
        let texts: [(String, WritableKeyPath<ClaimsPatch, String?>)] = [
            ("topic", \.topic), ("resource", \.resource), ("jti", \.participantId), ("whipUrl", \.whipURL), ("eventsUrl", \.eventsURL),
        ]
        for (key, path) in texts {
            if let value = map.optional(key) { patch[keyPath: path] = try value.string(key) }
        }
        patch.signer = try map.optional("signedBy")?.oneOf("signedBy", TokenSigner.self) ?? .app
        try map.finish("an exchanged token")
        return .patch(patch)
    }

    private static func seconds(_ node: YAMLNode, _ what: String) throws -> UInt64 {
        try duration(node, what).nanoseconds / 1_000_000_000
    }
}
