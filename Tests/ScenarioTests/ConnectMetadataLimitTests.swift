import Drivers
@testable import Scenario
import Signaling
import StageCore
import Testing

/// Issue 13, point 5: the loader refuses connect metadata the stage service could not read
/// (its JSON depth limit, `JSONValue.maximumDepth`), instead of a join that is silently dropped.
@Suite("Connect metadata the service can read (SIG-2, STG-3)")
struct ConnectMetadataLimitTests {
    /// A scenario where alice sends `key` nested `levels` mappings deep, and bob joins too.
    private func scenario(_ key: String, levels: Int) -> String {
        let value = (0..<levels).reduce("\"x\"") { inner, _ in "{k: \(inner)}" }
        return """
        name: deep
        participants:
          - name: alice
            \(key): \(value)
          - name: bob
        steps:
          - {at: 0s, participant: alice, call: join}
          - {at: 0s, participant: bob, call: join}

        """
    }

    private func error(_ text: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(text, path: "deep.yaml")
            return nil
        } catch {
            return error as? ScenarioError
        }
    }

    @Test("metadata as deep as the connect frame allows loads, and the participant connects")
    func deepestReadableConnects() throws {
        let run = ScenarioRunner.run(try ScenarioLoader.parse(scenario("signalingMetadata", levels: JSONValue.maximumDepth - 1), path: "deep.yaml"))
        #expect(run.trace.events.contains { $0.observer == "alice" && $0.rendererEvent == .connectionStateChanged(.connected, nil) })
    }

    @Test("metadata one level deeper is refused at its value, naming the service's limit", arguments: ["signalingMetadata", "notifyMetadata"])
    func tooDeepIsRefused(key: String) {
        let found = error(scenario(key, levels: JSONValue.maximumDepth))
        #expect(found.map { [$0.line, $0.column] } == [4, 7 + key.count])
        #expect(found?.message.hasPrefix("\(key) nests \(JSONValue.maximumDepth) levels deep") == true)
        #expect(found?.message.contains("the stage service reads at most \(JSONValue.maximumDepth)") == true)
        #expect(found?.message.contains("at most \(JSONValue.maximumDepth - 1) levels fit") == true)
    }
}
