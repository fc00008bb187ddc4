import Simulation
import StageCore
import SubscriberModel

/// One line of a run's trace: at a virtual time, something an observer (a client's renderer,
/// a host call, or the network towards an endpoint) saw happen (NET-1).
public struct TraceEvent: Hashable, Sendable {
    public var time: VirtualTime
    /// The client name, or `server` for deliveries to the stage service.
    public var observer: String
    public var kind: Kind
    /// For an `exchangeToken` host call, the token the client held when the call was made, so
    /// the trace can say which fields the call changes; nil otherwise.
    public var replacedToken: String?
    /// For a delivered (or refused, or undecodable) or lost frame, the other end of the link: the sending client for a frame
    /// to the stage service, `server` for a frame to a client; nil otherwise. It is not part of
    /// the trace file (the sequence diagram of issue 17 draws its arrows from it).
    public var peer: String?
    /// The `peer` of a frame injected into a client's connection (a scenario's `inject` step,
    /// a hostile-input test): the stage service never sent it.
    public static let injectedSender = "injected"

    /// What happened.
    public enum Kind: Hashable, Sendable {
        case hostCall(HostCall)
        case renderer(RendererEvent)
        /// A frame arrived and was handled: the stage message it carried, and the frame itself.
        /// This case and `subscriber` are boxed (`indirect`): their payloads are the largest by
        /// far (a message is 193 bytes inline), and every monitor copies an event's kind to
        /// match it, so a kind sized for them made each of the ~40 matches per event copy 216
        /// bytes and retain every reference in the payload; boxed, the kind is 65 bytes and a
        /// copy of these cases retains one box.
        indirect case delivered(WireMessage, frame: String)
        /// One transmission of a frame was lost (it is sent again).
        case lost(frame: String)
        /// A frame of a connection that has since been replaced arrived and was dropped (NET-3).
        case discarded(frame: String)
        /// A second copy of a frame arrived and the transport dropped it (NET-2).
        case duplicate(frame: String)
        /// A frame overtook a missing one; the transport holds it until the gap is filled (NET-2).
        case heldForOrder(frame: String)
        /// A frame that is not valid stage signaling arrived; it was logged and changed nothing (SIG-8).
        case protocolError(frame: String, reason: String)
        /// The SDK asked the strategy (STR-3, STR-5 evidence).
        case strategyQueried(StrategyQueryReport)
        /// A client's timer fired and changed something (STG-3 retries).
        case timerFired(ClientTimer)
        /// The stage service changed what it holds about a participant (TOK, VIS evidence).
        case service(ServiceEvent)
        /// The SDK reported an error for a host call to its error delegate (TOK-4, TOK-3).
        case sdkError(SDKErrorReport)
        /// A composition's layout changed (TOK-9).
        case layout(CompositionLayout)
        /// An OpenTok-style subscriber callback about a remote stream (SUB-1..6).
        indirect case subscriber(SubscriberTraceEvent)
    }

    public init(time: VirtualTime, observer: String, kind: Kind, replacedToken: String? = nil, peer: String? = nil) {
        self.time = time
        self.observer = observer
        self.kind = kind
        self.replacedToken = replacedToken
        self.peer = peer
    }

    public var rendererEvent: RendererEvent? {
        if case .renderer(let event) = kind { return event }
        return nil
    }

    /// The kind's name for the trace file: `host`, `renderer`, `delivered`, `lost`, `strategy`, `timer`,
    /// `service`, `error`, `layout`.
    public var category: String {
        switch kind {
        case .hostCall: "host"
        case .renderer: "renderer"
        case .delivered: "delivered"
        case .lost: "lost"
        case .discarded: "discarded"
        case .protocolError: "protocol-error"
        case .duplicate: "duplicate"
        case .heldForOrder: "held"
        case .strategyQueried: "strategy"
        case .timerFired: "timer"
        case .service: "service"
        case .sdkError: "error"
        case .layout: "layout"
        case .subscriber: "subscriber"
        }
    }

    /// A complete one-line description of what happened (the timeline's text column).
    public var detail: String {
        switch kind {
        case .hostCall(.exchangeToken(let token)): TraceText.exchange(token, replacing: replacedToken)
        case .hostCall(let call): call.summary
        case .renderer(let event): TraceText.event(event)
        case .delivered(_, let frame), .lost(let frame), .discarded(let frame), .duplicate(let frame), .heldForOrder(let frame):
            framePrefix + TraceText.frame(frame)
        case .protocolError(let frame, let reason): "protocol error: \(reason); frame \(TraceText.frame(frame))"
        case .strategyQueried(let report): TraceText.report(report)
        case .timerFired(let timer): timer.summary
        case .service(let event): event.summary
        case .sdkError(let report): report.summary
        case .layout(let layout): layout.summary
        case .subscriber(let subscriber): "\(subscriber.streamId) \(subscriber.event.name)\(TraceText.subscriberDetail(subscriber.event))"
        }
    }

    /// What `detail` shows before the frame of a network event about one frame; empty for
    /// any other event.
    var framePrefix: String {
        switch kind {
        case .delivered: "<- "
        case .lost: "lost "
        case .discarded: "discarded (old connection) "
        case .duplicate: "duplicate dropped "
        case .heldForOrder: "held for order "
        default: ""
        }
    }

    /// The canonical JSON line of this event (`appendJSONLine`) as text.
    public var jsonLine: String {
        var bytes: [UInt8] = []
        appendJSONLine(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Stable text renderings shared by the trace file and the timeline.
public enum TraceText {
    public static func info(_ info: ParticipantInfo) -> String {
        var text = info.participantId
        if !info.userId.isEmpty { text += " user=\(info.userId)" }
        if !info.attributes.isEmpty { text += " \(info.attributes)" }
        return text
    }

    public static func streams(_ streams: [StageStream]) -> String {
        "[" + streams.map(\.description).joined(separator: ",") + "]"
    }

    /// The reason of a subscriber video event, or the stream's properties when it appears.
    public static func subscriberDetail(_ event: SubscriberEvent) -> String {
        switch event {
        case .subscriberVideoDisabled(let reason), .subscriberVideoEnabled(let reason): "(\(reason.rawValue))"
        case .streamCreated(let stream):
            "(audio=\(stream.hasAudio) video=\(stream.hasVideo) name=\(stream.name) type=\(stream.videoType.rawValue) "
                + "\(stream.videoDimensions.width)x\(stream.videoDimensions.height) fallback=\(stream.audioFallbackEnabled) layers=\(stream.layers.count) "
                + "created=\(VirtualTime(nanoseconds: stream.creationTime)))"
        case .subscriberVideoLayerChanged(let layer): "(\(layer.map { "\($0.width)x\($0.height)@\(Int($0.framesPerSecond)) \($0.bitsPerSecond / 1000) kbps" } ?? "none"))"
        case .streamDestroyed(_, let reason): "(\(reason.rawValue))"
        default: ""
        }
    }

    /// A signaling frame as the trace shows it: the JSON text, with the signature segment of
    /// every JWT in it replaced by `<signature>`: the claims say what a token is, and a trace does
    /// not change with the key material or the signing method.
    public static func frame(_ text: String) -> String {
        // Most frames carry no token: a byte scan spares them the Unicode-aware search.
        guard containsTokenStart(text) else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "eyJ") {
            result += rest[..<start.lowerBound]
            let candidate = rest[start.lowerBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
            let segments = candidate.split(separator: ".", omittingEmptySubsequences: false)
            if segments.count == 3 {
                result += segments[0] + "." + segments[1] + ".<signature>"
            } else {
                result += candidate
            }
            rest = rest[candidate.endIndex...]
        }
        return result + rest
    }

    /// Whether the UTF-8 bytes of `text` contain `eyJ` (how every JWT's header begins).
    static func containsTokenStart(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(containsTokenStart)
    }

    /// Whether `bytes` hold `eyJ` (the pattern overlaps itself nowhere, so a failed match
    /// resumes at the next byte).
    private static func containsTokenStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 3 else { return false }
        for position in 0..<(bytes.count - 2) where bytes[position] == UInt8(ascii: "e") {
            if bytes[position + 1] == UInt8(ascii: "y") && bytes[position + 2] == UInt8(ascii: "J") { return true }
        }
        return false
    }

    /// A token as the trace shows it: its claims (never the signature, which ECDSA randomizes),
    /// or the start of a string that is not a readable token.
    public static func token(_ token: String) -> String {
        guard let claims = TokenCodec.decodeUnverified(token) else {
            return "unreadable token \(json(String(token.prefix(24))))\(token.count > 24 ? "..." : "")"
        }
        return "jti=\(claims.participantId) topic=\(claims.topic) user=\(claims.userId) \(claims.attributes) "
            + "caps=\(capabilities(claims.capabilities)) exp=\(claims.expiresAtSeconds)"
    }

    /// `publish+subscribe`, `publish`, `subscribe` or `none`.
    static func capabilities(_ capabilities: Capabilities) -> String {
        let names = [capabilities.canPublish ? "publish" : nil, capabilities.canSubscribe ? "subscribe" : nil].compactMap { $0 }
        return names.isEmpty ? "none" : names.joined(separator: "+")
    }

    /// An `exchangeToken` call as the trace shows it: each claim it changes (`field: old -> new`)
    /// against the token it replaces, and which key signed it (TOK-3..5).
    public static func exchange(_ token: String, replacing old: String?) -> String {
        guard let new = TokenCodec.decodeUnverified(token) else { return "exchangeToken(\(self.token(token)))" }
        let current = old.flatMap(TokenCodec.decodeUnverified)
        let changes = claimFields(new).enumerated().compactMap { index, field -> String? in
            let before = current.map { claimFields($0)[index].value }
            return before == field.value ? nil : "\(field.name): \(before.map { "\($0) -> " } ?? "")\(field.value)"
        }
        return "exchangeToken(\(changes.isEmpty ? "no claim changes" : changes.joined(separator: ", ")); signed by \(signer(of: token)))"
    }

    /// Every TOK-2 claim of a token, named as in its payload, in a fixed order.
    private static func claimFields(_ claims: TokenClaims) -> [(name: String, value: String)] {
        [
            ("topic", claims.topic), ("resource", claims.resource), ("jti", claims.participantId), ("whip_url", claims.whipURL),
            ("events_url", claims.eventsURL), ("user_id", json(claims.userId)), ("attributes", "\(claims.attributes)"),
            ("capabilities", capabilities(claims.capabilities)),
            ("iat", "\(claims.issuedAtSeconds)"), ("exp", "\(claims.expiresAtSeconds)"),
        ]
    }

    /// The declared signer whose key id the token's header names, or the key id itself.
    private static func signer(of token: String) -> String {
        guard let keyId = TokenCodec.keyIdUnverified(token) else { return "an unreadable header" }
        return StageKeys.standard.signer(ofKeyId: keyId).map { "\($0.rawValue) (\(keyId))" } ?? json(keyId)
    }

    public static func snapshot(_ snapshot: PublisherSnapshot) -> String {
        info(snapshot.info) + (snapshot.streams.isEmpty ? "" : " " + streams(snapshot.streams))
    }

    public static func strategy(_ spec: StrategySpec) -> String {
        let rules = spec.rules.map { rule in
            "\(rule.participantId ?? "*")\(rule.attributes.isEmpty ? "" : "\(rule.attributes)")->\(rule.answer.rawValue)"
        }
        return "publish=\(spec.publish) streams=\(spec.streams.map(\.description)) subscribe=\(spec.subscribe.rawValue)"
            + (rules.isEmpty ? "" : " rules=\(rules)")
    }

    public static func report(_ report: StrategyQueryReport) -> String {
        "asked shouldSubscribe\(report.askedShouldPublish ? "+shouldPublish" : "") canPublish=\(report.canPublish)"
            + " changed=\(report.changedSubscribeAnswers)\(report.publishAnswersChanged ? "+publish" : "")"
    }

    public static func event(_ event: RendererEvent) -> String {
        let subject = event.participant.map { info($0) } ?? ""
        let error = event.error.map { " error=\($0)" } ?? ""
        switch event {
        case .participantDidJoin(let who), .participantDidLeave(let who):
            return "\(event.name) \(subject)\(who.isLocal ? " (local)" : "")"
        case .publishStateChanged, .subscribeStateChanged:
            return "\(event.name) \(subject) -> \(event.stateName ?? "")\(error)"
        case .connectionStateChanged:
            return "\(event.name) -> \(event.stateName ?? "")\(error)"
        case .didAddStreams, .didRemoveStreams, .didChangeMutedStreams:
            return "\(event.name) \(subject) \(streams(event.streams))"
        case .participantMetadataDidUpdate:
            return "\(event.name) \(subject)"
        }
    }

    /// A JSON string literal for `text`, escaping quotes, backslashes and control characters.
    public static func json(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONBytes.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
