import Foundation
import Signaling
import StageCore
import StageSDK
import Testing

// The blind audit's Swift cases: written from `ivs-token-exchange.it.txt` and
// `sora-signaling-json.ja.txt` alone, through the public Swift API, as an outside reviewer
// would, before reading StageSim's own tests (README, "Seed audits"). Each names the statement
// of the page it checks and the spec rule.

/// Records every renderer callback a stage gets, in order.
private final class BlindRenderer: IVSStageRenderer {
    var joined: [IVSParticipantInfo] = []
    var left: [IVSParticipantInfo] = []
    var metadataUpdates: [IVSParticipantInfo] = []
    var connectionStates: [IVSStageConnectionState] = []
    var localPublishStates: [IVSParticipantPublishState] = []

    func stage(_ stage: IVSStage, participantDidJoin participant: IVSParticipantInfo) { joined.append(participant) }
    func stage(_ stage: IVSStage, participantDidLeave participant: IVSParticipantInfo) { left.append(participant) }
    func stage(_ stage: IVSStage, participantMetadataDidUpdate participant: IVSParticipantInfo) { metadataUpdates.append(participant) }
    func stage(_ stage: IVSStage, didChange connectionState: IVSStageConnectionState, withError error: Error?) {
        connectionStates.append(connectionState)
    }
    func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didChange publishState: IVSParticipantPublishState) {
        if participant.isLocal { localPublishStates.append(publishState) }
    }
}

/// The page's iOS renderer, as written ("class MyStageRenderer: NSObject, IVSStageRenderer").
private final class MyStageRenderer: NSObject, IVSStageRenderer {
    var updated: [IVSParticipantInfo] = []
    func stage(_ stage: IVSStage, participantMetadataDidUpdate participant: IVSParticipantInfo) {
        // participant will be a new IVSParticipantInfo instance with updated properties.
        updated.append(participant)
    }
}

/// A strategy that counts how often each question is asked and answers from its variables.
private final class BlindStrategy: IVSStageStrategy {
    var publishes: Bool
    var subscribeType: IVSStageSubscribeType
    var shouldPublishAsked = 0
    var streamsAsked = 0
    let microphone = IVSLocalStageStream(device: IVSMicrophone())

    init(publishes: Bool, subscribeType: IVSStageSubscribeType = .audioVideo) {
        self.publishes = publishes
        self.subscribeType = subscribeType
    }

    func stage(_ stage: IVSStage, shouldSubscribeToParticipant participant: IVSParticipantInfo) -> IVSStageSubscribeType { subscribeType }
    func stage(_ stage: IVSStage, shouldPublishParticipant participant: IVSParticipantInfo) -> Bool {
        shouldPublishAsked += 1
        return publishes
    }
    func stage(_ stage: IVSStage, streamsToPublishForParticipant participant: IVSParticipantInfo) -> [IVSLocalStageStream] {
        streamsAsked += 1
        return [microphone]
    }
}

/// Collects what the error delegate is told.
private final class BlindErrorLog: IVSErrorDelegate {
    var errors: [StageError] = []
    func stage(_ stage: IVSStage, didEmitError error: StageError) { errors.append(error) }
}

/// A publisher and observers of several SDKs, all joined and settled.
private struct BlindObservedPublisher {
    let simulation = StageSimulation(seed: 31, stageId: "blind")
    let publisher: IVSStage
    let publisherStrategy = BlindStrategy(publishes: true, subscribeType: .none)
    let publisherErrors = BlindErrorLog()
    let publisherRenderer = BlindRenderer()
    /// Observer renderers by SDK: mobile 1.37.0 (the page's boundary), mobile 1.36.9, web 1.40.0.
    let atBoundary = BlindRenderer()
    let belowBoundary = BlindRenderer()
    let web = BlindRenderer()
    private let observers: [IVSStage]

    init(publishes: Bool = true, capabilities: Capabilities = Capabilities()) throws {
        publisherStrategy.publishes = publishes
        publisher = try IVSStage(
            token: simulation.token(for: "pub", userId: "u1", attributes: ["role": "guest"], capabilities: capabilities),
            strategy: publisherStrategy
        )
        publisher.errorDelegate = publisherErrors
        publisher.addRenderer(publisherRenderer)
        let kinds: [(String, SDKKind, BlindRenderer)] = [
            ("m137", .mobile(SemanticVersion(1, 37, 0)), atBoundary),
            ("m136", .mobile(SemanticVersion(1, 36, 9)), belowBoundary),
            ("web", .web(SemanticVersion(1, 40, 0)), web),
        ]
        let simulation = simulation
        observers = try kinds.map { name, sdk, renderer in
            let stage = try IVSStage(token: simulation.token(for: name), strategy: BlindStrategy(publishes: false), sdk: sdk)
            stage.addRenderer(renderer)
            return stage
        }
        try simulation.add(publisher)
        for observer in observers { try simulation.add(observer) }
        try publisher.join()
        for observer in observers { try observer.join() }
        try simulation.run(for: .seconds(2))
    }
}

@Suite("Blind audit: ivs-token-exchange.it.txt through the Swift API")
struct BlindTokenExchangeAuditTests {
    @Test("T8/TOK-5: the page's iOS sequence, IVSStage(token:strategy:), join(), exchangeToken(newToken), swaps the token with no reconnect")
    func pageSequence() throws {
        let simulation = StageSimulation(seed: 32, stageId: "blind")
        let originalToken = simulation.token(for: "host", userId: "before")
        let newToken = simulation.token(for: "host", userId: "after", attributes: ["role": "cohost"])
        let renderer = BlindRenderer()
        let errors = BlindErrorLog()
        let stage = try IVSStage(token: originalToken, strategy: BlindStrategy(publishes: true))
        stage.addRenderer(renderer)
        stage.errorDelegate = errors
        try simulation.add(stage)
        try stage.join()
        stage.exchangeToken(newToken)
        try simulation.run(for: .seconds(3))
        #expect(stage.token == newToken)
        #expect(errors.errors.isEmpty)
        #expect(renderer.connectionStates == [.connecting, .connected])
        #expect(simulation.violations.isEmpty)
    }

    @Test("T9/T12/VIS-1/VIS-3: a published participant's exchange reaches mobile >= 1.37.0 at once as a new ParticipantInfo with the new userId and attributes; 1.36.9 and web never")
    func metadataEventByObserverSDK() throws {
        let world = try BlindObservedPublisher()
        let before = try #require(world.atBoundary.joined.first { $0.participantId == "pub" })
        world.publisher.exchangeToken(world.simulation.token(for: "pub", userId: "u2", attributes: ["role": "host"]))
        try world.simulation.run(for: .milliseconds(500))
        let update = try #require(world.atBoundary.metadataUpdates.only)
        #expect(update.participantId == "pub")
        #expect(update.userId == "u2")
        #expect(update.attributes == ["role": "host"])
        #expect(before.userId == "u1" && before.attributes == ["role": "guest"])
        #expect(world.belowBoundary.metadataUpdates.isEmpty)
        #expect(world.web.metadataUpdates.isEmpty)
        #expect(world.publisherRenderer.connectionStates == [.connecting, .connected])
        #expect(world.simulation.violations.isEmpty)
    }

    @Test("T13/VIS-4: after unpublish and republish, older mobile and web learn the new info from the republish's participantDidJoin")
    func republishCarriesNewInfo() throws {
        let world = try BlindObservedPublisher()
        world.publisher.exchangeToken(world.simulation.token(for: "pub", userId: "u2", attributes: ["role": "host"]))
        try world.simulation.run(for: .seconds(1))
        world.publisherStrategy.publishes = false
        world.publisher.refreshStrategy()
        try world.simulation.run(for: .seconds(1))
        #expect(world.belowBoundary.left.last?.userId == "u1")
        world.publisherStrategy.publishes = true
        world.publisher.refreshStrategy()
        try world.simulation.run(for: .seconds(1))
        for renderer in [world.belowBoundary, world.web, world.atBoundary] {
            let rejoin = try #require(renderer.joined.last { $0.participantId == "pub" })
            #expect(rejoin.userId == "u2")
            #expect(rejoin.attributes == ["role": "host"])
        }
        #expect(world.atBoundary.metadataUpdates.count == 1)
        #expect(world.belowBoundary.metadataUpdates.isEmpty && world.web.metadataUpdates.isEmpty)
    }

    @Test("T10/T11/VIS-2: a participant that has not published is updated invisibly, and every SDK sees the new info in its first participantDidJoin")
    func unpublishedParticipantUpdatedSilently() throws {
        let world = try BlindObservedPublisher(publishes: false)
        for renderer in [world.atBoundary, world.belowBoundary, world.web] {
            #expect(!renderer.joined.contains { $0.participantId == "pub" })
        }
        world.publisher.exchangeToken(world.simulation.token(for: "pub", userId: "u2", attributes: ["role": "host"]))
        try world.simulation.run(for: .seconds(1))
        for renderer in [world.atBoundary, world.belowBoundary, world.web] {
            #expect(renderer.metadataUpdates.isEmpty)
            #expect(!renderer.joined.contains { $0.participantId == "pub" })
        }
        world.publisherStrategy.publishes = true
        world.publisher.refreshStrategy()
        try world.simulation.run(for: .seconds(1))
        for renderer in [world.atBoundary, world.belowBoundary, world.web] {
            let joins = renderer.joined.filter { $0.participantId == "pub" }
            #expect(joins.map(\.userId) == ["u2"])
            #expect(joins.first?.attributes == ["role": "host"])
            #expect(renderer.metadataUpdates.isEmpty)
        }
    }

    @Test("T9: the page's NSObject renderer (MyStageRenderer) is called with the updated participant")
    func pageRendererClass() throws {
        let world = try BlindObservedPublisher()
        let renderer = MyStageRenderer()
        let observer = try #require(world.simulation.stages.first { $0.participantId == "m137" })
        observer.addRenderer(renderer)
        world.publisher.exchangeToken(world.simulation.token(for: "pub", userId: "u2", attributes: ["role": "host"]))
        try world.simulation.run(for: .seconds(1))
        #expect(renderer.updated.map(\.userId) == ["u2"])
        #expect(renderer.updated.first?.attributes["role"] == "host")
    }

    @Test("T12: every exchange of a published participant is broadcast; two in a row give two metadata events, in order")
    func repeatedExchanges() throws {
        let world = try BlindObservedPublisher()
        world.publisher.exchangeToken(world.simulation.token(for: "pub", userId: "u2"))
        try world.simulation.run(for: .seconds(1))
        world.publisher.exchangeToken(world.simulation.token(for: "pub", userId: "u3", attributes: ["role": "host"]))
        try world.simulation.run(for: .seconds(1))
        #expect(world.atBoundary.metadataUpdates.map(\.userId) == ["u2", "u3"])
        #expect(world.atBoundary.metadataUpdates.last?.attributes == ["role": "host"])
        #expect(world.belowBoundary.metadataUpdates.isEmpty)
    }

    @Test("T9: every renderer of a mobile 1.37.0 stage gets the metadata update, once each")
    func everyRendererGetsTheUpdate() throws {
        let world = try BlindObservedPublisher()
        let second = BlindRenderer()
        let observer = try #require(world.simulation.stages.first { $0.participantId == "m137" })
        observer.addRenderer(second)
        world.publisher.exchangeToken(world.simulation.token(for: "pub", userId: "u2"))
        try world.simulation.run(for: .seconds(1))
        #expect(world.atBoundary.metadataUpdates.map(\.userId) == ["u2"])
        #expect(second.metadataUpdates.map(\.userId) == ["u2"])
    }

    @Test("T7/TOK-5: exp may change, but a new token that has already expired is refused and the old one stays")
    func expiredNewTokenRefused() throws {
        let world = try BlindObservedPublisher()
        let original = world.publisher.token
        world.publisher.exchangeToken(world.simulation.token(for: "pub", userId: "late", validFor: .zero))
        try world.simulation.run(for: .seconds(1))
        #expect(world.publisherErrors.errors.map(\.code) == [.tokenExpired])
        #expect(world.publisher.token == original)
        #expect(world.atBoundary.metadataUpdates.isEmpty)
        let longer = world.simulation.token(for: "pub", userId: "u1", attributes: ["role": "guest"], validFor: .seconds(7200))
        world.publisher.exchangeToken(longer)
        try world.simulation.run(for: .seconds(1))
        #expect(world.publisher.token == longer)
        #expect(world.publisherErrors.errors.count == 1)
    }

    @Test("T7/T12: an exchange to an empty userId and no attributes is an update too (present-but-empty, not absent)")
    func emptyValuesAreAnUpdate() throws {
        let world = try BlindObservedPublisher()
        world.publisher.exchangeToken(world.simulation.token(for: "pub"))
        try world.simulation.run(for: .seconds(1))
        let update = try #require(world.atBoundary.metadataUpdates.only)
        #expect(update.userId == "")
        #expect(update.attributes.isEmpty)
    }

    @Test("T3/T12: exchanging the token the stage already holds changes nothing: no error, no metadata event, no reconnect")
    func sameTokenAgain() throws {
        let world = try BlindObservedPublisher()
        world.publisher.exchangeToken(world.publisher.token)
        try world.simulation.run(for: .seconds(1))
        #expect(world.publisherErrors.errors.isEmpty)
        #expect(world.atBoundary.metadataUpdates.isEmpty)
        #expect(world.publisherRenderer.connectionStates == [.connecting, .connected])
    }

    @Test("T9 (open question): an exchange that keeps userId and attributes (a capability and exp changed) gives no metadata event")
    func capabilityOnlyExchange() throws {
        let world = try BlindObservedPublisher()
        world.publisher.exchangeToken(world.simulation.token(
            for: "pub", userId: "u1", attributes: ["role": "guest"], capabilities: Capabilities(canPublish: true, canSubscribe: false),
            validFor: .seconds(7200)
        ))
        try world.simulation.run(for: .seconds(1))
        #expect(world.publisherErrors.errors.isEmpty)
        #expect(world.atBoundary.metadataUpdates.isEmpty)
        #expect(world.publisherRenderer.localPublishStates.last == .published)
    }

    @Test("T3/T6 wrong state: after leave(), an exchange changing an immutable field is still refused at once, a valid one is kept for the next join, which shows it")
    func exchangeWhileNotConnected() throws {
        let world = try BlindObservedPublisher()
        world.publisher.leave()
        try world.simulation.run(for: .seconds(1))
        world.publisher.exchangeToken(world.simulation.token(for: "intruder"))
        try world.simulation.run(for: .zero)
        #expect(world.publisherErrors.errors.count == 1)
        let renamed = world.simulation.token(for: "pub", userId: "u9")
        world.publisher.exchangeToken(renamed)
        try world.simulation.run(for: .zero)
        #expect(world.publisher.token == renamed)
        try world.publisher.join()
        try world.simulation.run(for: .seconds(1))
        #expect(world.belowBoundary.joined.last { $0.participantId == "pub" }?.userId == "u9")
        #expect(world.publisherErrors.errors.count == 1)
    }

    @Test("T9: the update is about remote participants: the exchanging stage's own renderer gets no metadata event, but its later events show its new info")
    func noMetadataEventForSelf() throws {
        let world = try BlindObservedPublisher()
        world.publisher.exchangeToken(world.simulation.token(for: "pub", userId: "u2"))
        try world.simulation.run(for: .seconds(1))
        #expect(world.publisherRenderer.metadataUpdates.isEmpty)
        world.publisherStrategy.publishes = false
        world.publisher.refreshStrategy()
        try world.simulation.run(for: .seconds(1))
        let ownUnpublish = world.simulation.trace.events.last { event in
            guard event.observer == "pub", case .renderer(.publishStateChanged(let info, .notPublished, _)) = event.kind else { return false }
            return info.isLocal
        }
        #expect(ownUnpublish?.rendererEvent?.participant?.userId == "u2")
        #expect(world.atBoundary.metadataUpdates.count == 1)
    }

    @Test("T4/TOK-6: publish gained by exchange asks the strategy's publish functions at once; a strategy that says no does not publish")
    func publishGainedAsksStrategy() throws {
        let world = try BlindObservedPublisher(publishes: false, capabilities: Capabilities(canPublish: false, canSubscribe: true))
        #expect(world.publisherStrategy.shouldPublishAsked == 0)
        world.publisher.exchangeToken(world.simulation.token(for: "pub", userId: "u1", attributes: ["role": "guest"]))
        try world.simulation.run(for: .milliseconds(300))
        #expect(world.publisherStrategy.shouldPublishAsked >= 1)
        #expect(!world.publisherRenderer.localPublishStates.contains(.published))
        #expect(world.publisherRenderer.connectionStates == [.connecting, .connected])
        world.publisherStrategy.publishes = true
        world.publisher.refreshStrategy()
        try world.simulation.run(for: .seconds(1))
        #expect(world.publisherRenderer.localPublishStates.last == .published)
        #expect(world.atBoundary.joined.contains { $0.participantId == "pub" })
    }

    @Test("T5/TOK-7: publish lost by exchange unpublishes at once without asking the strategy's publish functions")
    func publishLostSkipsStrategy() throws {
        let world = try BlindObservedPublisher()
        #expect(world.publisherRenderer.localPublishStates.last == .published)
        let (asked, streams) = (world.publisherStrategy.shouldPublishAsked, world.publisherStrategy.streamsAsked)
        world.publisher.exchangeToken(world.simulation.token(
            for: "pub", userId: "u1", attributes: ["role": "guest"], capabilities: Capabilities(canPublish: false, canSubscribe: true)
        ))
        try world.simulation.run(for: .milliseconds(300))
        #expect(world.publisherRenderer.localPublishStates.last == .notPublished)
        #expect(world.publisherStrategy.shouldPublishAsked == asked)
        #expect(world.publisherStrategy.streamsAsked == streams)
        #expect(world.atBoundary.left.contains { $0.participantId == "pub" })
        #expect(world.publisherRenderer.connectionStates == [.connecting, .connected])
    }

    @Test("T6/TOK-4: a new token with another jti or another topic is refused at once by the SDK; the old token stays and nobody hears anything")
    func immutableFieldsRefused() throws {
        let world = try BlindObservedPublisher()
        let original = world.publisher.token
        let otherStage = StageSimulation(seed: 1, stageId: "elsewhere")
        world.publisher.exchangeToken(world.simulation.token(for: "someone-else", userId: "x"))
        world.publisher.exchangeToken(otherStage.token(for: "pub", userId: "x"))
        try world.simulation.run(for: .zero)
        #expect(world.publisherErrors.errors.count == 2)
        try world.simulation.run(for: .seconds(1))
        #expect(world.publisherErrors.errors.count == 2)
        #expect(world.publisher.token == original)
        #expect(world.atBoundary.metadataUpdates.isEmpty)
        #expect(world.publisherRenderer.connectionStates == [.connecting, .connected])
    }

    @Test("T1/TOK-3: an exchange to a CreateParticipantToken (service-issued) token is refused and the old token stays")
    func createParticipantTokenRefused() throws {
        let world = try BlindObservedPublisher()
        let original = world.publisher.token
        world.publisher.exchangeToken(world.simulation.token(for: "pub", userId: "x", signedBy: .service))
        try world.simulation.run(for: .seconds(1))
        #expect(world.publisherErrors.errors.count == 1)
        #expect(world.publisher.token == original)
        #expect(world.atBoundary.metadataUpdates.isEmpty)
    }
}

@Suite("Blind audit: sora-signaling-json.ja.txt through the Swift API")
struct BlindSignalingJSONAuditTests {
    /// Two stages: `sender` with the given connect metadata, `receiver` recording both handler levels.
    private struct Pair {
        let simulation = StageSimulation(seed: 33, stageId: "blind")
        let sender: IVSStage
        let receiver: IVSStage
        var messages: [SignalingMessage] { received.messages }
        var texts: [WebSocketMessage] { received.texts }
        private let received = Received()

        final class Received {
            var messages: [SignalingMessage] = []
            var texts: [WebSocketMessage] = []
        }

        init(metadata: (any Encodable)? = nil, notifyMetadata: (any Encodable)? = nil) throws {
            sender = try IVSStage(token: simulation.token(for: "bob"), strategy: BlindStrategy(publishes: true))
            receiver = try IVSStage(token: simulation.token(for: "alice"), strategy: BlindStrategy(publishes: false))
            sender.signalingConnectMetadata = metadata
            sender.signalingConnectNotifyMetadata = notifyMetadata
            let received = received
            receiver.mediaChannel.handlers.onReceiveSignaling = { received.messages.append($0) }
            receiver.mediaChannel.webSocketChannel.handlers.onReceive = { received.texts.append($0) }
            try simulation.add(sender)
            try simulation.add(receiver)
            try receiver.join()
            try sender.join()
            try simulation.run(for: .seconds(2))
        }

        /// The sender's `connect` as the stage service received it, parsed as JSON.
        func sentConnect() throws -> [String: Any] {
            let frames = simulation.trace.events.compactMap { event -> String? in
                guard event.observer == "server", case .delivered(_, let frame) = event.kind, event.peer == "bob" else { return nil }
                return frame
            }
            let connect = try #require(frames.first { $0.contains("\"type\":\"connect\"") })
            return try #require(try JSONSerialization.jsonObject(with: Data(connect.utf8)) as? [String: Any])
        }

        /// The receiver's `connection.created` notifies about the sender.
        func createdNotifies() -> [SignalingNotify] {
            messages.compactMap { message in
                guard case .notify(let notify) = message, notify.eventType == "connection.created" else { return nil }
                return notify
            }
        }
    }

    @Test("S6/SIG-3: signalingConnectMetadata = \"contents\" gives {\"type\":\"connect\",\"metadata\":\"contents\",...}")
    func stringMetadata() throws {
        let pair = try Pair(metadata: "contents")
        let connect = try pair.sentConnect()
        #expect(connect["type"] as? String == "connect")
        #expect(connect["metadata"] as? String == "contents")
    }

    @Test("S6/SIG-3: signalingConnectMetadata = [\"key\": \"value\"] gives \"metadata\":{\"key\":\"value\"}")
    func dictionaryMetadata() throws {
        let pair = try Pair(metadata: ["key": "value"])
        let connect = try pair.sentConnect()
        #expect(connect["metadata"] as? [String: String] == ["key": "value"])
    }

    @Test("S5/SIG-3: Bool, Int, Float, String, Array and Dictionary values need no encoding code; notifyMetadata reaches the others as they were")
    func basicEncodableTypes() throws {
        let bool = try Pair(metadata: true, notifyMetadata: 7)
        #expect(try bool.sentConnect()["metadata"] as? Bool == true)
        #expect(bool.createdNotifies().compactMap { $0.metadata as? Int } == [7])
        let float = try Pair(metadata: Float(1.5), notifyMetadata: [1, 2, 3])
        #expect(try float.sentConnect()["metadata"] as? Double == 1.5)
        #expect(float.createdNotifies().compactMap { $0.metadata as? [Int] } == [[1, 2, 3]])
        let nested = try Pair(notifyMetadata: ["flags": [true, false]])
        let metadata = try #require(nested.createdNotifies().first?.metadata as? [String: Any])
        #expect(metadata["flags"] as? [Bool] == [true, false])
    }

    @Test("S4/S6/SIG-2: with neither property set, connect carries no metadata member at all (absent, not null)")
    func unsetMetadataIsAbsent() throws {
        let pair = try Pair()
        let connect = try pair.sentConnect()
        #expect(connect["type"] as? String == "connect")
        #expect(!connect.keys.contains("metadata"))
        #expect(!connect.keys.contains { $0.localizedCaseInsensitiveContains("notify") })
    }

    /// An app's own Encodable value, as the page's "Encodable プロトコルに準拠した値".
    private struct Profile: Encodable {
        var name: String
        var level: Int
        var nickname: String?
    }

    @Test("S4/S5/SIG-3: edge values: Float 0.1 stays 0.1, Int.max keeps every digit, an app's Encodable struct, a nil inside a dictionary is null")
    func encodableEdges() throws {
        let float = try Pair(metadata: Float(0.1))
        #expect(try float.sentConnect()["metadata"] as? Double == 0.1)
        let large = try Pair(metadata: Int.max)
        #expect(try (large.sentConnect()["metadata"] as? NSNumber)?.int64Value == Int64.max)
        let profile = try Pair(metadata: Profile(name: "bob", level: 3, nickname: nil), notifyMetadata: Profile(name: "bob", level: 3, nickname: "b"))
        let sent = try #require(try profile.sentConnect()["metadata"] as? [String: Any])
        #expect(sent["name"] as? String == "bob" && sent["level"] as? Int == 3)
        let shown = try #require(profile.createdNotifies().first?.metadata as? [String: Any])
        #expect(shown["nickname"] as? String == "b")
        let optional: [String: String?] = ["a": nil, "b": "x"]
        let withNil = try Pair(metadata: optional)
        let object = try #require(try withNil.sentConnect()["metadata"] as? [String: Any])
        #expect(object["a"] is NSNull)
        #expect(object["b"] as? String == "x")
    }

    @Test("S1/SIG-1: the page's Signaling enum and its per-type classes: a handler typed (Signaling) -> Void sees notify and push among its cases")
    func signalingEnumNames() throws {
        var seen: [String] = []
        let handler: (Signaling) -> Void = { signaling in
            switch signaling {
            case .connect(let message): seen.append("connect \(type(of: message))")
            case .offer(let message): seen.append("offer \(type(of: message))")
            case .answer(let message): seen.append("answer \(type(of: message))")
            case .update(let message): seen.append("update \(type(of: message))")
            case .candidate(let message): seen.append("candidate \(type(of: message))")
            case .notify(let message): seen.append("notify \(type(of: message))")
            case .ping(let message): seen.append("ping \(type(of: message))")
            case .pong(let message): seen.append("pong \(type(of: message))")
            case .disconnect: seen.append("disconnect")
            case .push(let message): seen.append("push \(type(of: message))")
            default: seen.append("other")
            }
        }
        let pair = try Pair(notifyMetadata: "x")
        for message in pair.messages { handler(message) }
        #expect(seen.contains("notify SignalingNotify"))
        #expect(seen.contains("push SignalingPush"))
    }

    @Test("S4/S6/SIG-3: the page's Configuration object: config.signalingConnectMetadata = \"contents\" and = [\"key\": \"value\"]")
    func configurationObject() throws {
        let simulation = StageSimulation(seed: 34, stageId: "blind")
        let stage = try IVSStage(token: simulation.token(for: "bob"), strategy: BlindStrategy(publishes: false))
        var config = Configuration()
        config.signalingConnectMetadata = "contents"
        config.signalingConnectNotifyMetadata = ["key": "value"]
        stage.configuration = config
        #expect(stage.signalingConnectMetadata as? String == "contents")
        stage.configuration.signalingConnectMetadata = ["key": "value"]
        #expect(stage.signalingConnectMetadata as? [String: String] == ["key": "value"])
        #expect(stage.configuration.signalingConnectNotifyMetadata as? [String: String] == ["key": "value"])
        try simulation.add(stage)
        try stage.join()
        try simulation.run(for: .seconds(1))
        let connect = try #require(simulation.trace.events.lazy.compactMap { event -> String? in
            guard event.observer == "server", case .delivered(_, let frame) = event.kind, frame.contains("\"type\":\"connect\"") else { return nil }
            return frame
        }.first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(connect.utf8)) as? [String: Any])
        #expect(json["metadata"] as? [String: String] == ["key": "value"])
    }

    @Test("S2/S9/SIG-2: notifyMetadata \"contents\" reaches the other participant's connection.created as the string it was")
    func stringNotifyMetadata() throws {
        let pair = try Pair(notifyMetadata: "contents")
        #expect(pair.createdNotifies().map { $0.metadata as? String } == ["contents"])
    }

    @Test("S8/S9/SIG-2/SIG-4: connection.created's metadata, authnMetadata and authzMetadata cast to [String: Any]; the page's switch compiles")
    func notifyCasts() throws {
        let pair = try Pair(notifyMetadata: ["name": "bob"])
        var metadata: [String: Any]?
        var authn: [String: Any]?
        var authz: [String: Any]?
        for signaling in pair.messages {
            switch signaling {
            case .notify(let notify):
                switch notify.eventType {
                case "connection.created":
                    if let value = notify.metadata as? [String: Any] { metadata = value }
                    if let value = notify.authnMetadata as? [String: Any] { authn = value }
                    if let value = notify.authzMetadata as? [String: Any] { authz = value }
                default:
                    break
                }
            case .push, .disconnect, .ping, .pong, .offer, .answer, .update, .candidate, .connect:
                break
            default:
                break
            }
        }
        #expect(metadata?["name"] as? String == "bob")
        #expect(authn != nil)
        #expect(authz != nil)
    }

    @Test("S2/S3/SIG-1/SIG-6: connect goes only to the service and notify and push only to clients; every ping a client receives is answered with a pong")
    func directionsAndKeepalive() throws {
        let pair = try Pair(metadata: "contents")
        try pair.simulation.run(for: .seconds(20))
        var toService: [String] = []
        var toBob: [String] = []
        for event in pair.simulation.trace.events {
            guard case .delivered(_, let frame) = event.kind,
                  let json = try JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any],
                  let type = json["type"] as? String else { continue }
            if event.observer == "server", event.peer == "bob" { toService.append(type) }
            if event.observer == "bob" { toBob.append(type) }
        }
        #expect(toService.first == "connect")
        #expect(toService.filter { $0 == "connect" }.count == 1)
        #expect(!toService.contains("notify") && !toService.contains("push") && !toService.contains("ping"))
        #expect(!toBob.contains("connect") && !toBob.contains("pong"))
        let pings = toBob.filter { $0 == "ping" }.count
        #expect(pings >= 3)
        #expect(toService.filter { $0 == "pong" }.count == pings)
    }

    @Test("S7/SIG-4: received JSON is what JSONSerialization makes: NSString, NSNumber, NSArray, NSDictionary, NSNull; null is NSNull, absent is nil")
    func parsedKinds() throws {
        let value: JSONValue = ["s": "x", "n": 1, "b": true, "a": [1], "o": [:], "z": .null]
        let pair = try Pair(notifyMetadata: value)
        let metadata = try #require(pair.createdNotifies().first?.metadata as? NSDictionary)
        #expect(metadata["s"] is NSString)
        #expect(metadata["n"] is NSNumber)
        #expect(metadata["b"] is NSNumber)
        #expect(metadata["a"] is NSArray)
        #expect(metadata["o"] is NSDictionary)
        #expect(metadata["z"] is NSNull)
        let null = try Pair(notifyMetadata: JSONValue.null)
        #expect(null.createdNotifies().first.map { $0.metadata is NSNull } == true)
        let absent = try Pair()
        let notify = try #require(absent.createdNotifies().first)
        #expect(notify.metadata == nil)
    }

    @Test("S8/S10/SIG-7: both handler levels get every frame; WebSocket messages are text, parse as JSON objects with a type; a push's data reads as the page reads it")
    func rawAndDecodedLevels() throws {
        let pair = try Pair(notifyMetadata: ["name": "bob"])
        var types: [String] = []
        for message in pair.texts {
            switch message {
            case .text(let text):
                let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                types.append(try #require(json["type"] as? String))
            case .binary:
                Issue.record("a binary signaling message arrived")
            }
        }
        #expect(types.count == pair.messages.count)
        #expect(types.contains("notify"))
        #expect(!types.contains("connect"))
        #expect(types == pair.messages.map(\.type.rawValue))
        var pushData: [[String: Any]] = []
        for case .push(let push) in pair.messages {
            if let data = push.data as? [String: Any] { pushData.append(data) }
        }
        #expect(!pushData.isEmpty)
        #expect(types.filter { $0 == "push" }.count == pushData.count)
    }
}

private extension Array {
    /// The one element, or nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
