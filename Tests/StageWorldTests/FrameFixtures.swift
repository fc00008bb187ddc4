import Drivers
import Simulation
import StageCore
@testable import StageWorld

/// JSON text of well-formed stage frames, built so that a test can break one member at a time
/// (SIG-8). Every default builds exactly what the stage service sends.
enum Fixture {
    static func info(_ id: String = "bob", attributes: String = #"{"seat":"7"}"#, allowPublish: String = "true") -> String {
        #"{"participant_id":"\#(id)","user_id":"u-\#(id)","attributes":\#(attributes),"allow_publish":\#(allowPublish),"allow_subscribe":true}"#
    }

    static func stream(_ id: String = "bob", kind: String = "audio", muted: String = "false") -> String {
        #"{"participant_id":"\#(id)","kind":"\#(kind)","muted":\#(muted)}"#
    }

    static let videoLine = "a=x-stagesim-video:fallback=true type=camera size=720x1280 fps=30"
    static let layerLines = [#"a=x-stagesim-layer:low 625000 640"#, #"a=x-stagesim-layer:high 2500000 1280"#]

    /// A publisher's `video_sdp` lines joined as a JSON string (CRLF escaped).
    static func videoSDP(_ lines: [String] = [videoLine] + layerLines) -> String {
        "\"" + lines.joined(separator: #"\r\n"#) + "\""
    }

    static func publisher(
        _ id: String = "bob", participant: String? = nil, streams: String? = nil, videoSDP: String = videoSDP(), created: String = "5",
        streamNumber: String = "1"
    ) -> String {
        let streams = streams ?? "[\(stream(id)),\(stream(id, kind: "video"))]"
        return #"{"participant":\#(participant ?? info(id)),"streams":\#(streams),"video_sdp":\#(videoSDP),"created_ns":\#(created),"stream_no":\#(streamNumber)}"#
    }

    static func push(_ data: String) -> String { #"{"type":"push","data":\#(data)}"# }

    static func published(_ publisher: String = publisher()) -> String {
        push(#"{"event":"participantPublished","publisher":\#(publisher)}"#)
    }

    static func offer(metadata: String = #"{"publishers":[]}"#, connectionId: String = "alice") -> String {
        #"{"type":"offer","sdp":"v=0\r\n","connection_id":"\#(connectionId)","metadata":\#(metadata)}"#
    }

    static func notify(
        _ eventType: String = "connection.created", connectionId: String = "bob", authn: String? = nil,
        authz: String = #"{"allow_publish":true,"allow_subscribe":true}"#
    ) -> String {
        #"{"type":"notify","event_type":"\#(eventType)","connection_id":"\#(connectionId)","role":"sendrecv","authn_metadata":\#(authn ?? info(connectionId)),"authz_metadata":\#(authz)}"#
    }

    static func error(code: String = "8", category: String = "join", fatal: String = "true", reason: String? = #""no""#) -> String {
        #"{"code":\#(code),"category":"\#(category)","fatal":\#(fatal)"# + (reason.map { #","reason":\#($0)"# } ?? "") + "}"
    }
}

/// The outcome of a frame arriving at a client: the stage message, or the protocol error.
func decodedAtClient(_ frame: String) -> Result<WireMessage, SignalingFrameError> {
    Envelope(from: .server, to: .client(0), frame: frame, epoch: 0).decoded()
}

func decodedAtServer(_ frame: String) -> Result<WireMessage, SignalingFrameError> {
    Envelope(from: .client(0), to: .server, frame: frame, epoch: 1).decoded()
}

/// alice and bob publish, carol only watches; all three have joined and subscribed by 3 s.
func threeClientStage(seed: UInt64 = 3) -> World {
    let clients = ["alice", "bob", "carol"].map { name in
        ClientConfig(name: name, sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(signedToken(name)), strategy: StrategySpec(publish: name != "carol"))
    }
    var world = World(stageId: "stage-1", clients: clients, links: [:], defaultLink: LinkConditions(), seed: seed)
    for index in 0..<3 { world.scheduleHostCall(.join, clientIndex: index, at: .milliseconds(UInt64(index) * 10)) }
    var simulator = Simulator(world: world, seed: seed)
    simulator.run(until: .seconds(3)) { _, _, _ in }
    return simulator.world
}

/// Delivers `frame` to client `index` now, as if the service had sent it on the client's
/// current connection, and returns the events of that one delivery.
func deliverNow(_ frame: String, toClient index: Int, in world: inout World) -> [TraceEvent] {
    world.inject(frame: frame, toClient: index, at: world.now)
    let injected = world.pending.sortedEntries.last { entry in
        if case .delivery(let envelope) = entry.payload { return envelope.frame == frame && envelope.epoch == Envelope.currentConnection }
        return false
    }
    guard let injected else { return [] }
    return world.apply(.fire(sequence: injected.sequence))
}
