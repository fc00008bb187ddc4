import Foundation
@testable import Scenario
import StageCore
import StageWorld
import Testing

/// A stream's own `video:` in a strategy (LST-3, SUB-7): read with the participant's
/// parser, refused with line and column as the participant form is, and written back by the
/// draft so that a saved case replays as it ran.
@Suite("A stream's own video configuration in scenario files (LST-3)")
struct StreamVideoConfigurationTests {
    static func text(stream: String) -> String {
        """
        name: x
        participants:
          - name: host
        steps:
          - {at: 0s, participant: host, call: join}
          - {at: 2s, participant: host, call: setStrategy, strategy: {streams: [audio, \(stream)]}}
          - {at: 2s, participant: host, call: refreshStrategy}

        """
    }

    static func parseError(_ text: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(text, path: "v.yaml")
            return nil
        } catch let error as ScenarioError {
            return error
        } catch {
            return nil
        }
    }

    @Test("a video stream's video mapping becomes its own configuration, through the setters")
    func loads() throws {
        let scenario = try ScenarioLoader.parse(Self.text(stream: "{kind: video, instance: 2, video: {maxBitrate: 900000, minBitrate: 200000, framerate: 15, width: 360, height: 640, simulcast: false, degradation: maintainFramerate}}"), path: "v.yaml")
        guard case .setStrategy(let strategy) = scenario.steps[1].call else {
            Issue.record("not a setStrategy: \(scenario.steps[1].call)")
            return
        }
        let video = try #require(strategy.streams.first { $0.kind == .video })
        #expect(video.instance == 2)
        let configuration = try #require(video.video)
        #expect(configuration.maxBitrateBitsPerSecond == 900_000)
        #expect(configuration.minBitrateBitsPerSecond == 200_000)
        #expect(configuration.targetFramerateFramesPerSecond == 15)
        #expect((configuration.widthPixels, configuration.heightPixels) == (360, 640))
        #expect(!configuration.simulcastEnabled)
        #expect(configuration.degradationPreference == .maintainFramerate)
        #expect(strategy.streams.first { $0.kind == .audio }?.video == nil)
    }

    @Test("bad values are reported at the value, as for a participant's video")
    func refusals() {
        let framerate = Self.parseError(Self.text(stream: "{kind: video, video: {framerate: 90}}"))
        #expect(framerate == ScenarioError(file: "v.yaml", line: 6, column: 113, message: "video targetFramerate: 90 fps is outside 10...30 fps"))
        let size = Self.parseError(Self.text(stream: "{kind: video, video: {width: 1920, height: 1080}}"))
        #expect(size?.line == 6)
        #expect(size?.message == "video size: 1920x1080 is outside 1x1...720x1280 (720p, either orientation)")
        let order = Self.parseError(Self.text(stream: "{kind: video, video: {maxBitrate: 300000, minBitrate: 400000}}"))
        #expect(order?.message == "video minBitrate: 400000 bps is above maxBitrate 300000 bps")
        #expect(Self.parseError(Self.text(stream: "{kind: video, video: {width: 360}}"))?.message == "video size needs both 'width' and 'height'")
        let audio = Self.parseError(Self.text(stream: "{kind: audio, video: {width: 360, height: 640}}"))
        #expect(audio?.line == 6)
        #expect(audio?.message == "only a video stream has a video configuration")
        #expect(Self.parseError(Self.text(stream: "{kind: video, video: {colour: red}}"))?.message.hasPrefix("unknown key 'colour' in video") == true)
    }

    @Test("a draft writes a stream's own configuration back, and the file loads as the draft runs")
    func roundTrip() throws {
        var configuration = VideoConfiguration()
        try configuration.setMaxBitrate(250_000)
        try configuration.setMinBitrate(250_000)
        try configuration.setTargetFramerate(10)
        try configuration.setSize(widthPixels: 480, heightPixels: 480)
        configuration.simulcastEnabled = false
        configuration.degradationPreference = .maintainResolution
        var participant = ScenarioDraft.Participant(
            name: "host", sdk: .mobile(SemanticVersion(1, 37, 0)), userId: "u", attributes: [:], capabilities: Capabilities(), publish: true, subscribe: .audioVideo)
        participant.video = configuration
        let streams = [LocalStream(kind: .audio), LocalStream(kind: .video, instance: 3, video: configuration)]
        let draft = ScenarioDraft(
            name: "round trip", seed: 1, durationSeconds: 10, faults: [], participants: [participant],
            steps: [
                .init(atMilliseconds: 0, participant: "host", call: .join),
                .init(atMilliseconds: 2_000, participant: "host", call: .setStrategy(StrategyPatch(streams: streams))),
                .init(atMilliseconds: 2_000, participant: "host", call: .refreshStrategy),
                .init(atMilliseconds: 3_000, participant: "host", call: .setMuted(.video, muted: true)),
                .init(atMilliseconds: 4_000, participant: "host", call: .setStrategy(StrategyPatch(subscribe: .audioOnly))),
            ],
            comments: [])
        #expect(draft.yaml.contains("video: {maxBitrate: 250000, minBitrate: 250000, framerate: 10, width: 480, height: 480, simulcast: false, degradation: maintainResolution}"))
        #expect(draft.yaml.contains("{kind: video, instance: 3, muted: false, video: {"))
        let loaded = try ScenarioLoader.parse(draft.yaml, path: draft.path)
        #expect(draft.scenario() == loaded)
        // A mute keeps the stream's own configuration for the strategy patched later.
        guard case .setStrategy(let last) = loaded.steps[4].call else {
            Issue.record("not a setStrategy: \(loaded.steps[4].call)")
            return
        }
        #expect(last.streams.first { $0.kind == .video }?.video == configuration)
        #expect(last.streams.first { $0.kind == .video }?.isMuted == true)
    }
}
