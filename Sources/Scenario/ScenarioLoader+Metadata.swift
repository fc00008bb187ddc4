import Signaling
import StageCore
import StageWorld

extension ScenarioLoader {
    /// `signalingMetadata` and `notifyMetadata` (SIG-2): any YAML value, sent as JSON with
    /// `connect`. A value is refused at its line and column when a frame that carries it could
    /// not be read where it arrives (the `connect` at the stage service, the `notify` at the
    /// other clients), judged by the parser they use with its depth limit
    /// (`JSONValue.maximumDepth`): the service would drop every join attempt, and the
    /// participant could only retry until its window ran out (STG-3).
    static func connectMetadata(_ map: inout YAMLMapping, participant name: String, stageId: String) throws -> ConnectMetadata {
        var connect = ConnectMetadata()
        if let node = map.optional("signalingMetadata") {
            let value = try node.jsonValue("signalingMetadata")
            try requireReadable(value, in: .join(token: "", metadata: ConnectMetadata(metadata: value)), by: .server, key: "signalingMetadata", at: node, stageId: stageId)
            connect.metadata = value
        }
        if let node = map.optional("notifyMetadata") {
            let value = try node.jsonValue("notifyMetadata")
            try requireReadable(value, in: .join(token: "", metadata: ConnectMetadata(notifyMetadata: value)), by: .server, key: "notifyMetadata", at: node, stageId: stageId)
            let announced = WireMessage.participantJoined(ParticipantInfo(participantId: name), notifyMetadata: value)
            try requireReadable(value, in: announced, by: .client, key: "notifyMetadata", at: node, stageId: stageId)
            connect.notifyMetadata = value
        }
        return connect
    }

    private static func requireReadable(
        _ value: JSONValue, in message: WireMessage, by reader: SignalingSide, key: String, at node: YAMLNode, stageId: String
    ) throws {
        let signaling = WireFrames.signaling(message, channelId: stageId)
        guard case .failure(let problem) = SignalingMessage.decode(frame: signaling.frame, arrivingAt: reader) else { return }
        let frame = signaling.type.rawValue
        let (readerName, loss) = reader == .server ? ("the stage service", "every join would be dropped") : ("the other clients", "they would drop its notify")
        let frameDepth = JSONValue.object(signaling.jsonObject).depth
        guard frameDepth > JSONValue.maximumDepth else {
            throw node.error("\(key) cannot be sent: \(readerName) could not read the \(frame) frame carrying it (\(problem))")
        }
        let fitting = JSONValue.maximumDepth - (frameDepth - value.depth)
        throw node.error(
            "\(key) nests \(value.depth) levels deep; the \(frame) frame carrying it nests \(frameDepth), and \(readerName) reads at most "
                + "\(JSONValue.maximumDepth) (its JSON depth limit), so \(loss): at most \(fitting) levels fit"
        )
    }
}
