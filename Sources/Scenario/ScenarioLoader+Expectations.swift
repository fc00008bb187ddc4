import Simulation
import StageCore
import StageWorld

/// What reading expectations needs to know about the scenario: who can observe, which
/// participant id each name and token jti stands for, and how long the run is.
struct ExpectationContext {
    /// Every participant's name and its token's jti (the participant id events carry).
    var identities: [(name: String, jti: String)]
    var duration: VirtualDuration

    init(participants: [ParticipantSpec], duration: VirtualDuration) {
        identities = participants.map { ($0.name, Self.jti(of: $0)) }.sorted { $0.name < $1.name }
        self.duration = duration
    }

    /// The participant id a participant's events carry: its token's jti (its name when a raw
    /// token cannot be read; such a participant never joins).
    private static func jti(of participant: ParticipantSpec) -> String {
        switch participant.config.token {
        case .signed(let claims, _): claims.participantId
        case .raw(let text): TokenCodec.decodeUnverified(text)?.participantId ?? participant.name
        }
    }

    /// A participant's name or token jti, as the participant id events carry.
    func participantId(_ node: YAMLNode) throws -> String {
        let text = try node.string("participant")
        let ids = Set(identities.filter { $0.name == text || $0.jti == text }.map(\.jti)).sorted()
        guard ids.count <= 1 else {
            throw node.error("participant '\(text)' is ambiguous: it is a name and another participant's jti (\(ids.joined(separator: ", ")))")
        }
        guard let id = ids.first else {
            let known = identities.map { $0.name == $0.jti ? $0.name : "\($0.name) (jti \($0.jti))" }
            throw node.error("unknown participant '\(text)'; expected a participant's name or token jti: \(known.joined(separator: ", "))")
        }
        return id
    }

    /// An observer of `kind`: a participant's name, or `service` for the stage service.
    func observer(_ node: YAMLNode, kind: EventKind) throws -> String {
        let text = try node.string("observer")
        let names = identities.map(\.name)
        let allowed: [String] = switch kind.observers {
        case .clients: names
        case .service: ["service"]
        case .clientsAndService: (names + ["service"]).sorted()
        }
        guard allowed.contains(text) else {
            throw node.error("unknown observer '\(text)' for \(kind.name); expected one of: \(allowed.joined(separator: ", "))")
        }
        guard text == "service" else { return text }
        guard !names.contains("service") else { throw node.error("observer 'service' is ambiguous: a participant is named 'service'") }
        return ExpectationVocabulary.serviceObserver
    }
}

/// One parsed `expect` entry, with the nodes later checks report at.
private struct ParsedExpectation {
    var expectation: Expectation
    var labelNode: YAMLNode?
    var orderNode: YAMLNode?
}

extension ScenarioLoader {
    /// The `expect:` list: every entry checked against its event kind, and every `after` /
    /// `before` against the labels (README "Scenario files").
    static func expectations(_ node: YAMLNode, participants: [ParticipantSpec], duration: VirtualDuration) throws -> [Expectation] {
        let context = ExpectationContext(participants: participants, duration: duration)
        let parsed = try node.sequence("expect").map { try expectation($0, context: context) }
        try checkLabels(parsed)
        return parsed.map(\.expectation)
    }

    private static func expectation(_ node: YAMLNode, context: ExpectationContext) throws -> ParsedExpectation {
        var map = try node.mapping("an expectation")
        let (mode, kind) = try expectationKind(&map, node: node)
        try rejectInapplicableFilters(map, kind: kind)
        var expectation = Expectation(mode: mode, matcher: try matcher(&map, kind: kind, context: context), line: node.line)
        if case .nothingBefore = mode {
            guard expectation.matcher.participant != nil else { throw node.error("'nothingBefore' needs 'participant': whom nothing may be about") }
            try map.finish("a nothingBefore expectation")
            return ParsedExpectation(expectation: expectation)
        }
        let count = try map.optional("count")?.int("count", range: 0...1_000_000)
        if count != nil && mode == .never { throw node.error("'count' goes with 'event', not with 'never'") }
        if count != nil { expectation.mode = .occurs(count: count) }
        if let window = map.optional("within") { try self.window(window, into: &expectation, context: context) }
        let labelNode = map.optional("label")
        expectation.label = try labelNode.map { try label($0, mode: expectation.mode) }
        let orderNode = try orderNode(&map, into: &expectation)
        try map.finish("an expectation")
        return ParsedExpectation(expectation: expectation, labelNode: labelNode, orderNode: orderNode)
    }

    /// Exactly one of `event` (must occur), `never` (must not occur) and `nothingBefore`
    /// (nothing about the participant before this event), naming a known kind.
    private static func expectationKind(_ map: inout YAMLMapping, node: YAMLNode) throws -> (Expectation.Mode, EventKind) {
        let given = [("event", Expectation.Mode.occurs(count: nil)), ("never", .never), ("nothingBefore", .nothingBefore)]
            .compactMap { key, mode in map.optional(key).map { (mode, $0) } }
        guard given.count == 1, let (mode, eventNode) = given.first else {
            throw node.error("an expectation needs exactly one of 'event' (must occur), 'never' (must not occur) or 'nothingBefore'")
        }
        let name = try eventNode.string("event")
        guard let kind = ExpectationVocabulary.kind(named: name) else {
            throw eventNode.error("unknown event '\(name)'; expected one of: \(ExpectationVocabulary.names.sorted().joined(separator: ", "))")
        }
        if name == ExpectationVocabulary.anyEvent && mode != .never { throw eventNode.error("'any' goes with 'never' only") }
        if mode == .nothingBefore && !kind.filters.contains("participant") {
            throw eventNode.error("nothingBefore needs an event about a participant; \(name) has none")
        }
        return (mode, kind)
    }

    /// A filter key this kind cannot carry is an error that names the ones it can.
    private static func rejectInapplicableFilters(_ map: YAMLMapping, kind: EventKind) throws {
        for pair in map.pairs {
            let key = try pair.key.string("a key")
            if ExpectationVocabulary.allFilters.contains(key) && !kind.filters.contains(key) {
                throw pair.key.error("'\(key)' does not apply to \(kind.name); its filters: \(kind.filters.joined(separator: ", "))")
            }
        }
    }

    private static func matcher(_ map: inout YAMLMapping, kind: EventKind, context: ExpectationContext) throws -> EventMatcher {
        var matcher = EventMatcher(event: kind.name)
        matcher.observer = try map.optional("observer").map { try context.observer($0, kind: kind) }
        matcher.participant = try map.optional("participant").map(context.participantId)
        matcher.userId = try map.optional("userId")?.string("userId")
        matcher.attributes = try map.optional("attributes").map { Attributes(try $0.stringMap("attributes")) }
        matcher.capabilities = try map.optional("capabilities").map(capabilities)
        matcher.isMuted = try map.optional("isMuted")?.bool("isMuted")
        matcher.contains = try map.optional("contains")?.string("contains")
        matcher.streams = try map.optional("streams").map { try $0.sequence("streams").map { try $0.oneOf("stream kind", MediaKind.self) } }
        matcher.errorCode = try map.optional("error").flatMap { StageErrorCode(name: try enumValue($0, "error", kind: kind)) }
        matcher.state = try map.optional("state").map { try enumValue($0, "state", kind: kind) }
        matcher.operation = try map.optional("operation").map { try enumValue($0, "operation", kind: kind) }
        matcher.frameType = try map.optional("type").map { try enumValue($0, "type", kind: kind) }
        matcher.reason = try map.optional("reason").map { try enumValue($0, "reason", kind: kind) }
        matcher.question = try map.optional("question").map { try enumValue($0, "question", kind: kind) }
        return matcher
    }

    /// The value of an enum filter, one of those `kind` allows for it.
    private static func enumValue(_ node: YAMLNode, _ filter: String, kind: EventKind) throws -> String {
        let text = try node.string(filter)
        let allowed = kind.allowedValues(filter) ?? []
        guard allowed.contains(text) else {
            throw node.error("unknown \(filter) '\(text)' for \(kind.name); expected one of: \(allowed.joined(separator: ", "))")
        }
        return text
    }

    /// `within: [1s, 3s]`: the window of virtual time the expectation looks at; it must lie
    /// inside the run, or the expectation would judge time the run never reached.
    private static func window(_ node: YAMLNode, into expectation: inout Expectation, context: ExpectationContext) throws {
        let bounds = try node.sequence("within")
        guard bounds.count == 2 else { throw node.error("within takes two durations: [from, to]") }
        let start = try duration(bounds[0], "within start")
        let end = try duration(bounds[1], "within end")
        guard start <= end else { throw bounds[1].error("within ends (\(end)) before it starts (\(start))") }
        guard end <= context.duration else {
            throw bounds[1].error("within ends at \(end), after the run ends at \(context.duration): the run never reaches that time")
        }
        expectation.windowStart = start
        expectation.windowEnd = end
    }

    /// `label: <name>`: only an expectation that must occur has a first match to refer to.
    private static func label(_ node: YAMLNode, mode: Expectation.Mode) throws -> String {
        guard case .occurs(let count) = mode, count != 0 else {
            throw node.error("'label' goes with an 'event' expectation that must occur (not 'never' or count 0)")
        }
        return try node.string("label")
    }

    /// `after: <label>` or `before: <label>`, not both.
    private static func orderNode(_ map: inout YAMLMapping, into expectation: inout Expectation) throws -> YAMLNode? {
        let after = map.optional("after")
        let before = map.optional("before")
        if let after, before != nil { throw after.error("an expectation takes 'after' or 'before', not both") }
        if let after { expectation.order = .after(try after.string("after")) }
        if let before { expectation.order = .before(try before.string("before")) }
        return after ?? before
    }

    /// Labels are unique, every `after`/`before` names one, and no chain of them loops.
    private static func checkLabels(_ parsed: [ParsedExpectation]) throws {
        var labelled: [String: Int] = [:]
        for (index, entry) in parsed.enumerated() {
            guard let label = entry.expectation.label, let node = entry.labelNode else { continue }
            if labelled[label] != nil { throw node.error("label '\(label)' is used twice") }
            labelled[label] = index
        }
        for entry in parsed {
            guard let order = entry.expectation.order, let node = entry.orderNode else { continue }
            guard labelled[order.label] != nil else {
                throw node.error("unknown label '\(order.label)'; labels: \(labelled.keys.sorted().joined(separator: ", "))")
            }
            var seen = 0
            var next: Expectation.Order? = order
            while let step = next, let index = labelled[step.label] {
                seen += 1
                if seen > parsed.count { throw node.error("'\(order.label)' refers back to itself through after/before") }
                next = parsed[index].expectation.order
            }
        }
    }
}
