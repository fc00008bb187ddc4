import Drivers
import Scenario
import StageWorld

/// The world a short run leaves: "pub" publishing, "viewer" connected and subscribed to its
/// audio and video. `keepalive` is the scenario's keepalive line, if any (a long ping
/// interval leaves no frame in flight at the end).
func subscribedPairWorld(keepalive: String? = nil) throws -> World {
    let keepaliveLine = keepalive.map { "keepalive: \($0)\n" } ?? ""
    let scenario = try ScenarioLoader.parse("""
        name: a publisher and a subscribed viewer
        duration: 5s
        \(keepaliveLine)participants:
          - {name: pub, strategy: {publish: true, subscribe: none}}
          - {name: viewer, strategy: {publish: false, subscribe: audioVideo}}
        steps:
          - {at: 0s, participant: pub, call: join}
          - {at: 0s, participant: viewer, call: join}
        """, path: "subscribed-pair.yaml")
    return ScenarioRunner.run(scenario).finalWorld
}
