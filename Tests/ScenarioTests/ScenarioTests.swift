import Drivers
import Foundation
@testable import Scenario
import Testing

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let scenarioFiles = ScenarioLoader.scenarioFiles(under: packageRoot + "/Scenarios")

@Suite("Bundled scenarios")
struct BundledScenarioTests {
    @Test("every scenario under Scenarios/ passes its expectations and invariants", arguments: scenarioFiles)
    func scenarioPasses(path: String) throws {
        let run = ScenarioRunner.run(try ScenarioLoader.load(path: path))
        for result in run.expectationResults where !result.passed {
            Issue.record("line \(result.expectation.line): \(result.expectation.description): \(result.detail)")
        }
        for result in run.exhaustiveResults where !result.passed {
            Issue.record("line \(result.observer.line): \(result.summary)\n\(result.diff.map(\.text).joined(separator: "\n"))")
        }
        #expect(run.violations.isEmpty, "\(run.violations)")
    }

    @Test("every scenario names the spec rules it covers")
    func coversRules() throws {
        #expect(scenarioFiles.count >= 5)
        for path in scenarioFiles {
            let scenario = try ScenarioLoader.load(path: path)
            #expect(!scenario.covers.isEmpty, "\(path)")
            #expect(scenario.covers.allSatisfy { $0.range(of: #"^(TOK|VIS|STG|STR|RND|LST|SIG|SUB|NET)-\d+$"#, options: .regularExpression) != nil })
        }
    }

    @Test("the same scenario and seed give the same trace; the lossy scenario differs by seed")
    func determinismInProcess() throws {
        let scenario = try ScenarioLoader.load(path: packageRoot + "/Scenarios/net-lossy-join-publish-subscribe.yaml")
        #expect(ScenarioRunner.run(scenario, seed: 5).traceHash == ScenarioRunner.run(scenario, seed: 5).traceHash)
        #expect(ScenarioRunner.run(scenario, seed: 5).traceHash != ScenarioRunner.run(scenario, seed: 6).traceHash)
    }
}

@Suite("Scenario loader errors")
struct LoaderErrorTests {
    let minimal = """
    name: x
    participants:
      - name: alice
    steps:
      - {at: 0s, participant: alice, call: join}

    """

    func error(_ text: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(text, path: "bad.yaml")
            return nil
        } catch let error as ScenarioError {
            return error
        } catch {
            return nil
        }
    }

    @Test("a valid file loads")
    func valid() throws {
        let scenario = try ScenarioLoader.parse(minimal, path: "ok.yaml")
        #expect(scenario.steps.count == 1)
        #expect(scenario.duration == .seconds(30))
    }

    @Test("YAML syntax errors carry line and column")
    func syntax() {
        let found = error("name: x\nparticipants: [\n  - name: a\n")
        #expect(found?.file == "bad.yaml")
        #expect((found?.line ?? 0) >= 2)
        #expect(found?.message.hasPrefix("YAML syntax") == true)
    }

    @Test("unknown keys are reported at the key")
    func unknownKey() {
        let found = error(minimal.replacingOccurrences(of: "  - name: alice", with: "  - name: alice\n    colour: red"))
        #expect(found?.description.hasPrefix("bad.yaml:4:5: unknown key 'colour' in a participant; allowed: attributes, ") == true)
        #expect(found?.description.contains(" strategy, ") == true)
    }

    @Test("unknown participant names are reported at the name")
    func unknownParticipant() {
        let found = error(minimal.replacingOccurrences(of: "participant: alice", with: "participant: zed"))
        #expect(found?.line == 5)
        #expect(found?.message == "unknown participant 'zed'; declared: alice")
    }

    @Test("wrong types and bad values are reported at the value")
    func wrongTypes() {
        #expect(error(minimal.replacingOccurrences(of: "at: 0s", with: "at: soon"))?.message.contains("not a duration") == true)
        #expect(error(minimal + "seed: -3\n")?.line == 6)
        #expect(error(minimal.replacingOccurrences(of: "- name: alice", with: "- name: [alice]"))?.message == "name must be a string")
        #expect(error(minimal + "network: {loss: 2}\n")?.message == "loss must be a probability from 0 to 1")
        #expect(error(minimal + "expect:\n  - {event: didExplode}\n")?.message.hasPrefix("unknown event 'didExplode'") == true)
        #expect(error(minimal.replacingOccurrences(of: "call: join", with: "call: dance"))?.column == 40)
    }
}

@Suite("Media: simulcast layers and RTC stats (LST-4, LST-5)")
struct MediaScenarioTests {
    @Test("the constrained downlink receives the low layer, stats come from the links")
    func layersAndStats() throws {
        let run = ScenarioRunner.run(try ScenarioLoader.load(path: packageRoot + "/Scenarios/lst-4-simulcast-layers.yaml"))
        let world = run.finalWorld
        let fiber = try #require(world.rtcStats(observer: "fiber", participant: "presenter", kind: .video)?["inbound-rtp-video"])
        let mobile = try #require(world.rtcStats(observer: "mobile", participant: "presenter", kind: .video)?["inbound-rtp-video"])
        let single = try #require(world.rtcStats(observer: "mobile", participant: "single", kind: .video)?["inbound-rtp-video"])
        #expect(fiber["layer"] == "high")
        #expect(fiber["frameHeight"] == "1280")
        #expect(fiber["framesPerSecond"] == "24")
        #expect(mobile["layer"] == "low")
        #expect(mobile["frameHeight"] == "640")
        #expect(single["layer"] == "high")
        #expect(fiber["roundTripTimeMs"] == "60.0")
        #expect(mobile["roundTripTimeMs"] == "160.0")
        #expect(Double(mobile["packetsLostRatio"] ?? "") ?? 0 > 0.04)
        #expect(fiber["packetsLostRatio"] == "0.0")
        let audio = try #require(world.rtcStats(observer: "fiber", participant: "presenter", kind: .audio)?["inbound-rtp-audio"])
        #expect(audio["peakDb"] != nil && audio["rmsDb"] != nil)
        #expect(world.rtcStats(observer: "fiber", participant: "nobody", kind: .video) == nil)
    }

    @Test("an invalid video setting is reported at its value")
    func invalidVideo() {
        let text = "name: x\nparticipants:\n  - name: a\n    video: {framerate: 90}\n"
        #expect(throws: ScenarioError(file: "v.yaml", line: 4, column: 24, message: "video targetFramerate: 90 fps is outside 10...30 fps")) {
            try ScenarioLoader.parse(text, path: "v.yaml")
        }
    }
}
