import Foundation
import Signaling
import StageCore
import StageSDK
import StageWorld
import Testing

// The seed pages' remaining Swift code, written as the pages write it (the comments marked
// "page" hold the page's lines verbatim; `...` in the page is filled with what the test
// records), with the smallest harness around it: a simulation, a camera, stages.

/// A publisher whose strategy publishes the given camera stream and a microphone stream.
private final class CameraPublisher: IVSStageStrategy {
    var cameraStream: IVSLocalStageStream
    let microphoneStream = IVSLocalStageStream(device: IVSMicrophone())

    init(cameraStream: IVSLocalStageStream) { self.cameraStream = cameraStream }

    func stage(_ stage: IVSStage, shouldSubscribeToParticipant participant: IVSParticipantInfo) -> IVSStageSubscribeType { .none }
    func stage(_ stage: IVSStage, shouldPublishParticipant participant: IVSParticipantInfo) -> Bool { true }
    func stage(_ stage: IVSStage, streamsToPublishForParticipant participant: IVSParticipantInfo) -> [IVSLocalStageStream] {
        [cameraStream, microphoneStream]
    }
}

/// A viewer that subscribes to everyone and publishes nothing.
private final class Viewer: IVSStageStrategy {
    func stage(_ stage: IVSStage, shouldSubscribeToParticipant participant: IVSParticipantInfo) -> IVSStageSubscribeType { .audioVideo }
    func stage(_ stage: IVSStage, shouldPublishParticipant participant: IVSParticipantInfo) -> Bool { false }
    func stage(_ stage: IVSStage, streamsToPublishForParticipant participant: IVSParticipantInfo) -> [IVSLocalStageStream] { [] }
}

/// The page's "Create a Stage Configuration" example, verbatim, on a new configuration.
private func pageConfiguration() throws -> IVSLocalStageStreamVideoConfiguration {
    let config = IVSLocalStageStreamVideoConfiguration()
    try config.setMaxBitrate(900_000)
    try config.setMinBitrate(100_000)
    try config.setTargetFramerate(30)
    try config.setSize(CGSize(width: 360, height: 640))
    config.degradationPreference = .balanced
    return config
}

/// The page's "Disable Simulcast" example, verbatim.
private func pageSimulcastDisabledStream(camera: IVSCamera) -> IVSLocalStageStream {
    // Disable Simulcast
    let config = IVSLocalStageStreamVideoConfiguration()
    config.simulcast.enabled = false
    let cameraStream = IVSLocalStageStream(device: camera, configuration: config)
    // Other Stage implementation code
    return cameraStream
}

/// What `viewer` learned of `publisher`'s video from its publish (SUB-7, LST-4).
private func publishedVideo(of publisher: String, seenBy viewer: String, in simulation: StageSimulation) throws -> PublisherProperties {
    let index = try #require(simulation.world.clientIndex(named: viewer))
    return try #require(simulation.world.clients[index].remoteProperties[publisher])
}

@Suite("The IVS page's video configuration, written as the page writes it (LST-3, LST-4)")
struct SeedPageVideoConfigurationTests {
    @Test("the configuration example and the simulcast switch reach the world: size, bitrates and frame rate as set, and the layer a narrow downlink receives")
    func configurationReachesTheWorld() throws {
        let camera = IVSCamera()
        let configured = IVSLocalStageStream(device: camera, configuration: try pageConfiguration())
        let single = pageSimulcastDisabledStream(camera: camera)
        let plain = IVSLocalStageStream(device: camera)

        // The viewer's downlink carries 700 kbps: less than every high layer here.
        let simulation = StageSimulation(seed: 11, stageId: "demo")
        var stages: [IVSStage] = []
        for (name, stream) in [("configured", configured), ("single", single), ("plain", plain)] {
            stages.append(try IVSStage(token: simulation.token(for: name), strategy: CameraPublisher(cameraStream: stream)))
        }
        let viewer = try IVSStage(token: simulation.token(for: "viewer"), strategy: Viewer())
        for stage in stages { try simulation.add(stage) }
        try simulation.add(viewer, link: LinkConditions(downlinkBitsPerSecond: 700_000))
        for stage in stages + [viewer] { try stage.join() }
        try simulation.run(for: .seconds(3))

        // What each publish carried, as the viewer learned it.
        let configuredVideo = try publishedVideo(of: "configured", seenBy: "viewer", in: simulation)
        #expect(configuredVideo.widthPixels == 360 && configuredVideo.heightPixels == 640)
        #expect(configuredVideo.framesPerSecond == 30)
        #expect(configuredVideo.layers.map(\.bitrateBitsPerSecond) == [225_000, 900_000])
        #expect(try publishedVideo(of: "single", seenBy: "viewer", in: simulation).layers.map(\.bitrateBitsPerSecond) == [2_500_000])
        #expect(try publishedVideo(of: "plain", seenBy: "viewer", in: simulation).layers.map(\.bitrateBitsPerSecond) == [625_000, 2_500_000])
        // The stage's own configuration is untouched: the stream's is what was published.
        #expect(stages[0].videoConfiguration == VideoConfiguration())

        // LST-4: with simulcast the narrow downlink gets the low layer; without, the only one.
        func receivedLayer(_ publisher: String) -> String {
            let inbound = viewer.requestRTCStats(for: StageStream(participantId: publisher, kind: .video))?["inbound-rtp-video"]
            return "\(inbound?["layer"] ?? "none") \(inbound?["frameHeight"] ?? "none")p"
        }
        #expect(receivedLayer("configured") == "low 320p")
        #expect(receivedLayer("plain") == "low 640p")
        #expect(receivedLayer("single") == "high 1280p")
        #expect(simulation.violations.isEmpty)
    }

    @Test("the setters refuse values outside LST-3's limits with a clear error, and a refused value changes nothing")
    func settersRefuseInvalidValues() throws {
        let config = try pageConfiguration()
        let before = config.configuration
        #expect(throws: VideoConfigurationError.self) { try config.setMaxBitrate(3_000_000) }
        #expect(throws: VideoConfigurationError.self) { try config.setMaxBitrate(99_999) }
        #expect(throws: VideoConfigurationError.self) { try config.setTargetFramerate(60) }
        #expect(throws: VideoConfigurationError.self) { try config.setSize(CGSize(width: 1920, height: 1080)) }
        #expect(throws: VideoConfigurationError.self) { try config.setSize(CGSize(width: 0, height: 640)) }
        let fractional = #expect(throws: VideoConfigurationError.self) { try config.setSize(CGSize(width: 360.5, height: 640)) }
        #expect(fractional?.setting == "size")
        #expect(fractional?.description.contains("360.5") == true)
        let minAboveMax = #expect(throws: VideoConfigurationError.self) { try config.setMinBitrate(950_000) }
        #expect(minAboveMax?.description == "minBitrate: 950000 bps is above maxBitrate 900000 bps")
        #expect(config.configuration == before)
        #expect(config.simulcast.enabled)
        config.simulcast.enabled = false
        #expect(!config.configuration.simulcastEnabled)
        #expect(config.configuration.layers.count == 1)
    }

    @Test("a stream keeps the configuration it was created with; a microphone's stream has none")
    func streamCopiesItsConfiguration() throws {
        let config = try pageConfiguration()
        let cameraStream = IVSLocalStageStream(device: IVSCamera(), configuration: config)
        try config.setSize(CGSize(width: 720, height: 1280))
        #expect(cameraStream.kind == .video)
        #expect(cameraStream.videoConfiguration?.widthPixels == 360)
        let microphoneStream = IVSLocalStageStream(device: IVSMicrophone(), configuration: config)
        #expect(microphoneStream.kind == .audio)
        #expect(microphoneStream.videoConfiguration == nil)
    }

    @Test("a stream with another configuration returned after refreshStrategy republishes: a viewer who joins later is told its size, and a viewer already watching has the stream's current dimensions (SUB-7)")
    func newConfigurationRepublishes() throws {
        let simulation = StageSimulation(seed: 12, stageId: "demo")
        let strategy = CameraPublisher(cameraStream: IVSLocalStageStream(device: IVSCamera(), configuration: try pageConfiguration()))
        let publisher = try IVSStage(token: simulation.token(for: "host"), strategy: strategy)
        let early = try IVSStage(token: simulation.token(for: "early"), strategy: Viewer())
        let late = try IVSStage(token: simulation.token(for: "late"), strategy: Viewer())
        for stage in [publisher, early, late] { try simulation.add(stage) }
        try publisher.join()
        try early.join()
        try simulation.run(for: .seconds(3))

        let landscape = IVSLocalStageStreamVideoConfiguration()
        try landscape.setSize(CGSize(width: 640, height: 360))
        strategy.cameraStream = IVSLocalStageStream(device: IVSCamera(), configuration: landscape)
        publisher.refreshStrategy()
        try simulation.run(for: .seconds(2))
        try late.join()
        try simulation.run(for: .seconds(3))

        let told = try publishedVideo(of: "host", seenBy: "late", in: simulation)
        #expect(told.widthPixels == 640 && told.heightPixels == 360)
        let known = try publishedVideo(of: "host", seenBy: "early", in: simulation)
        #expect(known.widthPixels == 640 && known.heightPixels == 360, "the early viewer still holds \(known.widthPixels)x\(known.heightPixels)")
        // opentok-subscribe.en.txt: videoDimensions, "the current dimensions of the video media track on this stream".
        let earlyIndex = try #require(simulation.world.clientIndex(named: "early"))
        let watched = simulation.world.clients[earlyIndex].subscribers.filter { $0.publisherId == "host" && !$0.state.phase.isTerminal }
        try #require(!watched.isEmpty)
        #expect(watched.allSatisfy { $0.state.stream.videoDimensions == .init(width: 640, height: 360) })
        #expect(simulation.violations.isEmpty)
    }
}

/// The IVS page's stats delegate: `func stream(_:didGenerateRTCStats:)` as the page writes it,
/// set on every stream a renderer is given.
private final class StatsApp: IVSStageRenderer, IVSStageStreamDelegate {
    var streams: [IVSStageStream] = []
    var removed: [IVSStageStream] = []
    var mutedStreams: [IVSStageStream] = []
    var deliveries: [(stream: IVSStageStream, stats: [String: [String: String]])] = []
    var members = 0
    /// Whether to ask for statistics from inside didAdd.
    var requestOnAdd = false

    func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didAdd streams: [IVSStageStream]) {
        for stream in streams {
            stream.delegate = self
            if requestOnAdd { try? stream.requestRTCStats() }
        }
        self.streams += streams
    }

    func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didRemove streams: [IVSStageStream]) { removed += streams }

    func stage(_ stage: IVSStage, participant: IVSParticipantInfo, didChangeMutedStreams streams: [IVSStageStream]) { mutedStreams += streams }

    func stream(_ stream: IVSStageStream, didGenerateRTCStats stats: [String : [String : String]]) {
        deliveries.append((stream, stats))
        // page
        for stat in stats { for member in stat.value { print("stat \(stat.key) has member \(member.key) with value \(member.value)") } }
        members += stats.values.map(\.count).reduce(0, +)
    }

    /// The first stream of `kind` given after the first `skipping` streams.
    func stream(_ kind: MediaKind, after skipping: Int = 0) throws -> IVSStageStream {
        try #require(streams.dropFirst(skipping).first { $0.kind == kind })
    }
}

@Suite("The IVS page's WebRTC statistics: requestRTCStats on IVSStageStream, delivered to its delegate (LST-5, RND-4..6)")
struct SeedPageStatsTests {
    /// host publishing camera and microphone, viewer subscribed with `app` as its renderer.
    private func hostAndViewer(_ app: StatsApp) throws -> (StageSimulation, host: IVSStage, viewer: IVSStage, hostStrategy: CameraPublisher) {
        let simulation = StageSimulation(seed: 13, stageId: "demo")
        let hostStrategy = CameraPublisher(cameraStream: IVSLocalStageStream(device: IVSCamera()))
        let host = try IVSStage(token: simulation.token(for: "host"), strategy: hostStrategy)
        let viewer = try IVSStage(token: simulation.token(for: "viewer"), strategy: Viewer())
        viewer.addRenderer(app)
        try simulation.add(host)
        try simulation.add(viewer)
        try host.join()
        try viewer.join()
        try simulation.run(for: .seconds(3))
        return (simulation, host, viewer, hostStrategy)
    }

    @Test("each request delivers its stream's statistics to the delegate exactly once, when the simulation next steps")
    func oncePerRequest() throws {
        let app = StatsApp()
        let (simulation, _, viewer, _) = try hostAndViewer(app)
        #expect(app.streams.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.audio, .video])
        let video = try app.stream(.video)
        let audio = try app.stream(.audio)

        try video.requestRTCStats()
        try video.requestRTCStats()
        try audio.requestRTCStats()
        #expect(app.deliveries.isEmpty)
        try simulation.run(for: .milliseconds(1))
        try #require(app.deliveries.count == 3)
        #expect(app.deliveries.map { $0.stream === video } == [true, true, false])
        #expect(app.deliveries[2].stream === audio)
        #expect(app.deliveries[0].stats == viewer.requestRTCStats(for: StageStream(participantId: "host", kind: .video)))
        #expect(app.deliveries[0].stats["inbound-rtp-video"]?["layer"] == "high")
        #expect(app.deliveries[2].stats["inbound-rtp-audio"]?["peakDb"] != nil)
        #expect(app.members == app.deliveries.map { $0.stats.values.map(\.count).reduce(0, +) }.reduce(0, +))
        try simulation.run(for: .seconds(2))
        #expect(app.deliveries.count == 3)
    }

    @Test("a request made in didAdd is delivered in the same run")
    func requestFromCallback() throws {
        let app = StatsApp()
        app.requestOnAdd = true
        _ = try hostAndViewer(app)
        #expect(app.deliveries.count == 2)
        #expect(Set(app.deliveries.map { ObjectIdentifier($0.stream) }) == Set(app.streams.map { ObjectIdentifier($0) }))
    }

    @Test("later events give the same objects, mute current; a removed stream's request throws and delivers nothing")
    func sameObjectsUntilRemoved() throws {
        let app = StatsApp()
        let (simulation, host, _, hostStrategy) = try hostAndViewer(app)
        let audio = try app.stream(.audio)
        hostStrategy.microphoneStream.setMuted(true)
        try simulation.run(for: .seconds(1))
        #expect(app.mutedStreams.count == 1 && app.mutedStreams.first === audio)
        #expect(audio.isMuted)
        try audio.requestRTCStats()
        try simulation.run(for: .milliseconds(1))
        #expect(app.deliveries.last?.stats["inbound-rtp-audio"]?["peakDb"] == "-100.0")

        host.leave()
        try simulation.run(for: .seconds(2))
        #expect(app.removed.count == 2)
        #expect(app.removed.allSatisfy { removed in app.streams.contains { $0 === removed } })
        let delivered = app.deliveries.count
        #expect(throws: StageStreamError.noStatistics(participantId: "host", kind: .audio)) { try audio.requestRTCStats() }
        try simulation.run(for: .seconds(1))
        #expect(app.deliveries.count == delivered)

        // Published again, the stream comes as a new object; the removed one stays removed.
        try host.join()
        try simulation.run(for: .seconds(3))
        let again = try app.stream(.audio, after: 2)
        #expect(again !== audio)
        #expect(throws: StageStreamError.noStatistics(participantId: "host", kind: .audio)) { try audio.requestRTCStats() }
        try again.requestRTCStats()
        try simulation.run(for: .milliseconds(1))
        #expect(app.deliveries.count == delivered + 1 && app.deliveries.last?.stream === again)
    }
}

@Suite("The Sora page's handlers, written as the page writes them (SIG-2, SIG-4, SIG-7)")
struct SeedPageSoraHandlerTests {
    @Test("mediaChannel.handlers.onReceiveSignaling and webSocketChannel.handlers.onReceive get what the page says they get")
    func pageHandlers() throws {
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let alice = try addStage("alice", to: simulation)
        let bob = try addStage("bob", to: simulation)
        bob.stage.signalingConnectNotifyMetadata = ["seat": 7]
        let mediaChannel = alice.stage.mediaChannel
        var created: [[String: Any]] = []
        var authns: [[String: Any]] = []
        var authzs: [[String: Any]] = []
        var createdEvents = 0, secondCase = 0, otherEvents = 0, pushes: [[String: Any]] = [], otherMessages = 0
        var texts = 0, binaries = 0, rawNotifyMetadata: [Any?] = [], rawPushData: [Any?] = [], otherTexts = 0, parseErrors = 0

        // page
        // MediaChannelHandlers でメッセージを取得する
        mediaChannel.handlers.onReceiveSignaling = { signaling in
            switch signaling {

            // type: notify
            case .notify(let notify):
                switch notify.eventType {
                case "connection.created":
                    // メタデータに含まれる JSON 値 (Any) を任意の型にキャストする
                    if let metadata = notify.metadata as? [String: Any] {
                        print("metadata => \(metadata)")
                        created.append(metadata)
                    }
                    if let authnMetadata = notify.authnMetadata as? [String: Any] {
                        print("authn => \(authnMetadata)")
                        authns.append(authnMetadata)
                    }
                    if let authzMetadata = notify.authzMetadata as? [String: Any] {
                        print("authz => \(authzMetadata)")
                        authzs.append(authzMetadata)
                    }
                    createdEvents += 1

                // 他のイベント種別でも同様に処理する
                case "connection.created":
                    secondCase += 1

                default:
                    otherEvents += 1
                }

            // type: push
            case .push(let push):
                if let data = push.data as? [String: Any] {
                    print("data => \(data)")
                    pushes.append(data)
                }

            default:
                otherMessages += 1
            }
        }

        // WebSocket メッセージを手動で解析する場合
        mediaChannel.webSocketChannel.handlers.onReceive = { message in
            switch message {
            case .text(let text):
                // 受信したシグナリングのテキストデータを JSON データとして解析する
                if let data = text.data(using: .utf8) {
                    do {
                        if let json = try JSONSerialization.jsonObject(with: data, options: []) as? [String: Any] {
                            switch json["type"] as? String {
                            case "notify":
                                // type: notify
                                print("notify metadata => \(json["metadata"])")
                                rawNotifyMetadata.append(json["metadata"])
                            case "push":
                                // type: push
                                print("push data => \(json["data"])")
                                rawPushData.append(json["data"])
                            default:
                                otherTexts += 1
                            }
                        }
                    } catch let error {
                        // JSON の解析に失敗した場合のエラー処理
                        // ここに来ることはないので無視してよい
                        parseErrors += 1
                        Issue.record("a signaling text is not JSON: \(error)")
                    }
                }
                texts += 1
            case .binary(_):
                // シグナリングでバイナリデータは来ないので何もしなくてよい
                binaries += 1
            }
        }
        // end page

        var stageFrames = 0
        alice.stage.onReceive = { _ in stageFrames += 1 }
        try alice.stage.join()
        try bob.stage.join()
        try simulation.run(for: .seconds(3))

        // bob's connection.created carries his notify metadata and the service's authn metadata.
        #expect(createdEvents >= 1 && secondCase == 0)
        #expect(created.compactMap { $0["seat"] as? Int } == [7])
        #expect(authns.contains { $0["participant_id"] as? String == "bob" })
        #expect(!pushes.isEmpty && pushes.allSatisfy { $0["event"] is String })
        // The decoded level gets every message that decodes, the raw level every frame, all text.
        #expect(createdEvents + secondCase + otherEvents + pushes.count + otherMessages == alice.stage.signaling.receivedTotal)
        #expect(texts == stageFrames && texts > 0 && binaries == 0 && parseErrors == 0)
        #expect(rawNotifyMetadata.compactMap { ($0 as? [String: Any])?["seat"] as? Int } == [7])
        #expect(rawPushData.count == pushes.count)
        #expect(rawNotifyMetadata.count + rawPushData.count + otherTexts == texts)
        #expect(alice.stage.onReceiveSignaling != nil)
        #expect(simulation.violations.isEmpty)
    }
}
