import Simulation
import StageCore
import StageWorld

/// TOK-6, TOK-7: when an exchanged token grants the publish capability, the SDK asks the
/// strategy's publish questions at once; when it takes it away from a publishing participant,
/// the participant unpublishes at once. "At once" is while handling the service's acceptance,
/// before anything else happens to that client.
public struct CapabilityChangeMonitor: InvariantMonitor {
    public var name: String { "capability-change-acts-at-once" }
    public var summary: String { "an exchange that grants publishing asks shouldPublish at once; one that removes it unpublishes at once" }
    public var rules: [String] { ["TOK-6", "TOK-7"] }
    /// Per client: the publish capability its SDK last read (a shouldPublish query's report,
    /// a join or an accepted exchange), and whether it publishes as its renderers were told.
    private var canPublish = ClientIndexed<Bool>()
    private var publishing = ClientIndexed<Bool>()
    private var owed: [String: (TraceEvent, Int, String)] = [:]

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        let observer = event.observer
        switch event.kind {
        case .strategyQueried(let report) where report.askedShouldPublish:
            if owed[observer]?.2 == Self.gain { owed[observer] = nil }
            if let client = world.clientIndex(named: observer) { canPublish[client] = report.canPublish }
        case .renderer(.publishStateChanged(let info, let state, _)) where info.isLocal:
            let publishes = state == .published || state == .attemptingPublish
            if let client = world.clientIndex(named: observer) { publishing[client] = publishes }
            if !publishes && owed[observer]?.2 == Self.loss { owed[observer] = nil }
        case .delivered(.exchangeAccepted(let info), _):
            let overdue = settle(observer)
            // An answer that reaches a client which has left since it asked changes nothing.
            guard let client = world.clientIndex(named: observer), world.clients[client].view.local.connectionState == .connected else { return overdue }
            let before = canPublish[client]
            if before == false && info.capabilities.canPublish { owed[observer] = (event, index, Self.gain) }
            if before == true && !info.capabilities.canPublish && publishing[client] == true { owed[observer] = (event, index, Self.loss) }
            canPublish[client] = info.capabilities.canPublish
            return overdue
        case .delivered(.joinAccepted, _):
            if let client = world.clientIndex(named: observer) { canPublish[client] = world.clients[client].view.local.info.capabilities.canPublish }
            return settle(observer)
        case .delivered, .hostCall:
            return settle(observer)
        default:
            break
        }
        return []
    }

    private static let gain = "the exchanged token granted publishing, but shouldPublish was not asked at once"
    private static let loss = "the exchanged token took publishing away, but the participant did not unpublish at once"

    public func finish(world: World) -> [Violation] {
        owed.keys.sorted().compactMap { observer in owed[observer].map { violation($0.0, index: $0.1, $0.2) } }
    }

    private mutating func settle(_ observer: String) -> [Violation] {
        guard let (event, index, message) = owed.removeValue(forKey: observer) else { return [] }
        return [violation(event, index: index, message)]
    }

    public static var keyReads: WorldReads { .clients }

    /// Each connected observer's known publish capability, and the observers publishing, each
    /// as its difference from the observer's view (`CanonicalWriter.writeDifference`: every
    /// event that sets them reads the view or tells the renderer what the view holds, so a run
    /// without a violation writes nothing), and which change each observer is owed (TOK-6,
    /// TOK-7); the owed change's event only words the report. The capability of an observer
    /// that is not connected is left out: it is read only on an exchange accepted while
    /// connected, and a client gets connected only through a `joinAccepted`, which sets it.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        if capabilitiesMatch(world) {
            writer.write(UInt32(0))
        } else {
            let connected = world.clients.indices.filter { world.clients[$0].view.local.connectionState == .connected }
            let expected = Dictionary(uniqueKeysWithValues: connected.map { (world.clients[$0].name, world.clients[$0].view.local.info.capabilities.canPublish) })
            let known = Dictionary(uniqueKeysWithValues: connected.compactMap { client in canPublish[client].map { (world.clients[client].name, $0) } })
            writer.writeDifference(known, from: expected, key: { $0.writeName($1) }, value: { $0.write($1) })
        }
        if publishingMatches(world) {
            writer.write(UInt32(0))
        } else {
            let viewPublishing = Set(world.clients.indices.filter { world.clients[$0].view.local.isPublishingOrAttempting }.map { world.clients[$0].name })
            let told = Set(publishing.entries.filter(\.value).map { world.clients[$0.client].name })
            writer.writeDifference(told, from: viewPublishing) { $0.writeName($1) }
        }
        writer.writeUnordered(owed) { writer, entry in
            writer.writeName(entry.key)
            writer.write(entry.value.2 == Self.gain)
        }
    }
}

extension CapabilityChangeMonitor {
    /// Whether every connected client's view holds the publish capability the monitor knows
    /// for it: then the capabilities' difference is empty, found with no allocation.
    fileprivate func capabilitiesMatch(_ world: World) -> Bool {
        for index in world.clients.indices where world.clients[index].view.local.connectionState == .connected {
            guard canPublish[index] == world.clients[index].view.local.info.capabilities.canPublish else { return false }
        }
        return true
    }

    /// Whether the observers publishing are exactly the clients whose view is publishing or
    /// attempting to: then the publishing difference is empty, found with no allocation.
    fileprivate func publishingMatches(_ world: World) -> Bool {
        var viewPublishing = 0
        for index in world.clients.indices where world.clients[index].view.local.isPublishingOrAttempting {
            guard publishing[index] == true else { return false }
            viewPublishing += 1
        }
        return publishing.entries.reduce(0) { $0 + ($1.value ? 1 : 0) } == viewPublishing
    }
}

/// TOK-4: no accepted exchange ever changes `topic`, `resource`, `jti`, `whip_url` or
/// `events_url` of the token a participant joined with. Both tokens are read from the stage
/// service after the step that took them (the verified claims of the join it admitted, of the
/// exchange it accepted), so no token is kept beyond its step.
public struct ExchangeImmutabilityMonitor: InvariantMonitor {
    public var name: String { "exchange-keeps-immutable-fields" }
    public var summary: String { "an accepted token exchange never changes topic, resource, jti, whip_url or events_url" }
    public var rules: [String] { ["TOK-4"] }
    /// Per participant id: the claims of the token the service admitted it with.
    private var joinedWith: [String: TokenClaims] = [:]

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] {
        switch event.kind {
        case .service(.admitted(let info)):
            joinedWith[info.participantId] = world.server.participant(info.participantId)?.claims
        case .service(.metadataUpdated(let info)):
            guard let original = joinedWith[info.participantId], let new = world.server.participant(info.participantId)?.claims,
                  let field = Self.changedField(from: original, to: new) else { return [] }
            return [violation(event, index: index, "the service accepted an exchange for \(info.participantId) that changed \(field)")]
        default:
            break
        }
        return []
    }
}

extension ExchangeImmutabilityMonitor {
    public static var keyReads: WorldReads { .service }

    /// For each participant the service holds, its join token's immutable fields (TOK-4, as
    /// `changedField` compares them; no verdict reads the other claims)
    /// when they differ from those of the token the service holds now. In a run without a
    /// violation nothing is written: the service admits a participant with the token it holds
    /// and, an exchange that changed a field being reported at once, holds the same fields
    /// after every exchange. An entry of a participant the service no longer holds is left
    /// out: it is read only on an exchange the service accepted for that participant, and the
    /// service takes a participant back only through a join it admits, which replaces it.
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        guard world.server.participants.indices.contains(where: { differs(world.server.participants[$0]) }) else {
            return writer.write(UInt32(0))
        }
        let differing = world.server.participants.filter(differs)
        writer.writeUnordered(differing) { writer, participant in
            writer.writeName(participant.info.participantId)
            guard let claims = joinedWith[participant.info.participantId] else { return writer.write(UInt8(0)) }
            writer.write(UInt8(1))
            writer.write(claims.topic)
            writer.write(claims.resource)
            writer.writeName(claims.participantId)
            writer.write(claims.whipURL)
            writer.write(claims.eventsURL)
        }
    }
}

extension ExchangeImmutabilityMonitor {
    /// The first field TOK-4 names that differs between the two tokens, by its JWT name, or
    /// nil: the monitor's own copy of the rule, so that a field missing from the model's list
    /// (`TokenClaims.changedImmutableField`) is found.
    static func changedField(from joined: TokenClaims, to new: TokenClaims) -> String? {
        if joined.topic != new.topic { return "topic" }
        if joined.resource != new.resource { return "resource" }
        if joined.participantId != new.participantId { return "jti" }
        if joined.whipURL != new.whipURL { return "whip_url" }
        if joined.eventsURL != new.eventsURL { return "events_url" }
        return nil
    }

    /// Whether the participant's entry differs from what the service holds: no claims known
    /// for it, or claims whose immutable fields the service's claims changed.
    fileprivate func differs(_ participant: ServerParticipant) -> Bool {
        joinedWith[participant.info.participantId].map { Self.changedField(from: $0, to: participant.claims) != nil } ?? true
    }
}
