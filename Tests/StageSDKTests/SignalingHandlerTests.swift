import Signaling
import StageSDK
import Testing

/// SIG-7 through the Swift API: a user's raw and decoded signaling handlers, as a user would
/// attach them.
@Suite("Signaling handlers on a Stage (SIG-7)")
struct SignalingHandlerTests {
    @Test("onReceive sees every text frame; onReceiveSignaling sees the decoded messages, notify included")
    func bothHandlerLevels() throws {
        let simulation = StageSimulation(seed: 7, stageId: "demo")
        let alice = try addStage("alice", to: simulation)
        let bob = try addStage("bob", to: simulation)
        var frames: [String] = []
        var messages: [SignalingMessage] = []
        alice.stage.onReceive = { frames.append($0) }
        alice.stage.onReceiveSignaling = { messages.append($0) }
        try alice.stage.join()
        try simulation.run(for: .seconds(1))
        try bob.stage.join()
        try simulation.run(for: .seconds(7))
        #expect(frames.count == messages.count)
        #expect(alice.stage.signaling.receivedTotal == messages.count)
        #expect(alice.stage.signaling.protocolLog.isEmpty)
        #expect(frames.first?.hasPrefix(#"{"type":"offer""#) == true)
        let created = messages.contains { message in
            if case .notify(let notify) = message { return notify.eventType == .connectionCreated && notify.connectionId == "bob" }
            return false
        }
        #expect(created)
        #expect(messages.contains { $0.type == .ping })
        #expect(simulation.violations.isEmpty)
    }
}
