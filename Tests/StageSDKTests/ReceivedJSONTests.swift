import Foundation
import Signaling
import StageCore
import StageSDK
import Testing

/// SIG-2, SIG-4 through the Swift API, as the Sora page (sora-signaling-json.ja.txt) writes its
/// handler: "任意の JSON 値の型は Any? です" (an arbitrary JSON value has the type `Any?`),
/// parsed by JSONSerialization into NSString, NSNumber, NSArray, NSDictionary or NSNull, and
/// read by casting (`notify.metadata as? [String: Any]`, `push.data as? [String: Any]`).
@Suite("Received JSON as the Sora page reads it (SIG-2, SIG-4)")
struct ReceivedJSONTests {
    /// alice and bob on one stage, bob sending `{"seat": 7}` as his notify metadata; neither has joined.
    private func aliceAndSeatedBob() throws -> (StageSimulation, alice: (stage: Stage, renderer: RecordingRenderer), bob: (stage: Stage, renderer: RecordingRenderer)) {
        let simulation = StageSimulation(seed: 5, stageId: "demo")
        let alice = try addStage("alice", to: simulation)
        let bob = try addStage("bob", to: simulation)
        bob.stage.signalingConnectNotifyMetadata = ["seat": 7]
        return (simulation, alice, bob)
    }

    /// Both join, and 3 s of virtual time pass.
    private func joinAndRun(_ alice: (stage: Stage, renderer: RecordingRenderer), _ bob: (stage: Stage, renderer: RecordingRenderer), in simulation: StageSimulation) throws {
        try alice.stage.join()
        try bob.stage.join()
        try simulation.run(for: .seconds(3))
    }

    @Test("the page's handler, switching on the event type's text and casting metadata, authn metadata and push data, finds them")
    func pageHandler() throws {
        let (simulation, alice, bob) = try aliceAndSeatedBob()
        var metadata: [[String: Any]] = []
        var authn: [[String: Any]] = []
        var pushes: [[String: Any]] = []
        alice.stage.onReceiveSignaling = { signaling in
            switch signaling {
            case .notify(let notify):
                switch notify.eventType {
                case "connection.created":
                    if let value = notify.metadata as? [String: Any] { metadata.append(value) }
                    if let value = notify.authnMetadata as? [String: Any] { authn.append(value) }
                default:
                    break
                }
            case .push(let push):
                if let data = push.data as? [String: Any] { pushes.append(data) }
            default:
                break
            }
        }
        try joinAndRun(alice, bob, in: simulation)

        #expect(metadata.count == 1)
        #expect(metadata.first?["seat"] as? Int == 7)
        #expect(metadata.first?["seat"] is NSNumber)
        #expect(authn.map { $0["participant_id"] as? String } == ["bob"])
        #expect(!pushes.isEmpty)
        #expect(pushes.allSatisfy { $0["event"] is String })
        #expect(simulation.violations.isEmpty)
    }

    @Test("the page's raw handler, parsing each text frame with JSONSerialization, finds notify metadata and push data")
    func pageRawHandler() throws {
        let (simulation, alice, bob) = try aliceAndSeatedBob()
        var notifyMetadata: [Any] = []
        var pushData: [Any] = []
        alice.stage.onReceive = { text in
            guard let data = text.data(using: .utf8),
                  let json = try? JSONSerialization.jsonObject(with: data, options: []) as? [String: Any] else { return }
            switch json["type"] as? String {
            case "notify": if let metadata = json["metadata"] { notifyMetadata.append(metadata) }
            case "push": if let data = json["data"] { pushData.append(data) }
            default: break
            }
        }
        try joinAndRun(alice, bob, in: simulation)

        #expect(notifyMetadata.compactMap { ($0 as? [String: Any])?["seat"] as? Int } == [7])
        #expect(!pushData.isEmpty)
        #expect(pushData.allSatisfy { ($0 as? [String: Any])?["event"] is String })
    }

    @Test("absent is nil, null is NSNull, and every JSON kind is the Foundation object JSONSerialization makes")
    func foundationObjects() {
        #expect(SignalingNotify(eventType: "connection.created").metadata == nil)
        #expect(SignalingNotify(eventType: "connection.created", metadata: .null).metadata is NSNull)
        #expect(SignalingPush(data: nil).data == nil)
        #expect(SignalingPush(data: .null).data is NSNull)
        let tagsValue: JSONValue = ["a", 1, true, .null]
        let notify = SignalingNotify(eventType: "connection.updated", metadata: ["name": "花子", "tags": tagsValue], authzMetadata: "text")
        let object = notify.metadata as? [String: Any]
        let name = object?["name"] as? String
        #expect(name == "花子")
        let tags = object?["tags"] as? [Any] ?? []
        #expect(tags.count == 4)
        #expect(tags.count == 4 && tags[1] as? Int == 1 && tags[2] as? Bool == true && tags[3] is NSNull)
        #expect(notify.authzMetadata as? String == "text")
        #expect(notify.authnMetadata == nil)
        #expect(notify.eventType == NotifyEventType.connectionUpdated)
    }
}
