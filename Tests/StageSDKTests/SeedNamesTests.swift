import StageCore
import StageSDK
import Testing

/// A strategy and a renderer written as ivs-publish-subscribe.en.txt and
/// ivs-token-exchange.it.txt write them: the `IVS` names and the pages' signatures, the
/// connection callback's error typed `Error?`.
private final class PageApp: IVSStageStrategy, IVSStageRenderer {
    let cameraStream = IVSLocalStageStream(kind: .video)
    let microphoneStream = IVSLocalStageStream(kind: .audio)
    var callbacks: [String] = []
    var connectionErrors: [(any Error)?] = []
    var updatedMetadata: [IVSParticipantInfo] = []
    var joinedAttributes: [String] = []

    func stage(_ stage: IVSStage, shouldSubscribeToParticipant participant: IVSParticipantInfo) -> IVSStageSubscribeType {
        switch participant.attributes["role"] {
        case "moderator": return .none
        case "guest": return .audioVideo
        default: return .none
        }
    }

    func stage(_ stage: IVSStage, shouldPublishParticipant participant: IVSParticipantInfo) -> Bool { true }

    func stage(_ stage: IVSStage, streamsToPublishForParticipant participant: IVSParticipantInfo) -> [IVSLocalStageStream] {
        [cameraStream, microphoneStream]
    }

    func stage(_ stage: IVSStage, participantDidJoin participant: IVSParticipantInfo) {
        callbacks.append("participantDidJoin")
        for attribute in participant.attributes {
            joinedAttributes.append("\(participant.participantId): \(attribute.key)=\(attribute.value)")
        }
    }
    func stage(_ stage: IVSStage, participantDidLeave participant: IVSParticipantInfo) { callbacks.append("participantDidLeave") }
    func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didChange publishState: IVSParticipantPublishState) { callbacks.append("publishState") }
    func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didChange subscribeState: IVSParticipantSubscribeState) { callbacks.append("subscribeState") }
    func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didAdd streams: [IVSStageStream]) { callbacks.append("didAddStreams") }
    func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didRemove streams: [IVSStageStream]) { callbacks.append("didRemoveStreams") }
    func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didChangeMutedStreams streams: [IVSStageStream]) { callbacks.append("didChangeMutedStreams") }
    func stage(_ stage: IVSStage, didChange connectionState: IVSStageConnectionState, withError error: Error?) {
        callbacks.append("connectionState \(connectionState.rawValue)")
        connectionErrors.append(error)
    }
    func stage(_ stage: IVSStage, participantMetadataDidUpdate participant: IVSParticipantInfo) { updatedMetadata.append(participant) }
}

@Suite("The IVS pages' code, written as the pages write it (STR-1, RND-1, STG-2, VIS-1)")
struct SeedNamesTests {
    @Test("a strategy and renderer with the pages' names and signatures are asked and told everything")
    func pageStrategyAndRenderer() throws {
        let simulation = StageSimulation(seed: 3, stageId: "demo")
        let moderatorApp = PageApp()
        let guestApp = PageApp()
        let moderator = try IVSStage(token: simulation.token(for: "mod", attributes: ["role": "moderator"]), strategy: moderatorApp)
        let guest = try IVSStage(token: simulation.token(for: "guest", attributes: ["role": "guest"]), strategy: guestApp)
        moderator.addRenderer(moderatorApp)
        guest.addRenderer(guestApp)
        try simulation.add(moderator)
        try simulation.add(guest)
        try moderator.join()
        try guest.join()
        try simulation.run(for: .seconds(3))
        guestApp.microphoneStream.setMuted(true)
        guest.refreshStrategy()
        try simulation.run(for: .seconds(2))
        guest.leave()
        try simulation.run(for: .seconds(2))

        // The moderator subscribes to the guest (role guest), the guest to nobody (role moderator).
        for expected in ["connectionState connected", "publishState", "participantDidJoin", "subscribeState", "didAddStreams", "didChangeMutedStreams", "didRemoveStreams", "participantDidLeave"] {
            #expect(moderatorApp.callbacks.contains(expected), "moderator: \(expected)")
        }
        #expect(!guestApp.callbacks.contains("didAddStreams"))
        #expect(moderatorApp.joinedAttributes.contains("guest: role=guest"))
        #expect(!guestApp.callbacks.contains("didChangeMutedStreams"))
        #expect(guestApp.callbacks.filter { $0.hasPrefix("connectionState") } == ["connectionState connecting", "connectionState connected", "connectionState disconnected"])
        #expect(guestApp.connectionErrors.allSatisfy { $0 == nil })
        #expect(simulation.violations.isEmpty)
    }

    @Test("a join the service refuses for its token reaches the page's `Error?` callback as a StageError")
    func refusedJoinError() throws {
        let simulation = StageSimulation(seed: 3, stageId: "demo")
        let app = PageApp()
        let stage = try IVSStage(token: simulation.token(for: "forged", signedBy: .unknown), strategy: app)
        stage.addRenderer(app)
        try simulation.add(stage)
        try stage.join()
        try simulation.run(for: .seconds(3))
        let error = try #require(app.connectionErrors.compactMap { $0 }.first as? StageError)
        #expect(error.code == .tokenNotAllowed)
    }

    @Test("the token-exchange page: join, exchange at once, and a renderer's participantMetadataDidUpdate sees the new attributes")
    func exchangeAsThePageDoes() throws {
        let simulation = StageSimulation(seed: 4, stageId: "demo")
        let publisherApp = PageApp()
        let viewerApp = PageApp()
        let publisher = try IVSStage(token: simulation.token(for: "host", attributes: ["role": "guest"]), strategy: publisherApp)
        let viewer = try IVSStage(token: simulation.token(for: "viewer", attributes: ["role": "moderator"]), strategy: viewerApp)
        viewer.addRenderer(viewerApp)
        try simulation.add(publisher)
        try simulation.add(viewer)
        try publisher.join()
        try viewer.join()
        try simulation.run(for: .seconds(3))
        publisher.exchangeToken(simulation.token(for: "host", attributes: ["role": "guest", "seat": "front"]))
        try simulation.run(for: .seconds(3))
        #expect(viewerApp.updatedMetadata.map(\.participantId) == ["host"])
        #expect(viewerApp.updatedMetadata.first?.attributes["seat"] == "front")
        #expect(simulation.violations.isEmpty)
    }
}
