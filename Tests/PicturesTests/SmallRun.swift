import Checking
import Simulation
import StageCore
import StageWorld

/// A hand-made trace of a short run (the world sorts its clients by name, so `<script>...` comes first) between the service and two clients, one with a hostile
/// name: 3 frames delivered, 1 lost, renderer and strategy events, a partition, a violation.
enum SmallRun {
    static let hostile = "<script>alert(1)</script>"

    static var config: WorldConfig {
        let clients = ["alice", hostile].map { ClientConfig(name: $0, token: .raw("token-\($0)")) }
        let faults = FaultPlan(partitions: [Partition(clientName: "alice", direction: .both, start: .milliseconds(50), end: .milliseconds(90))])
        return World(stageId: "stage-1", clients: clients, links: [:], defaultLink: LinkConditions(), seed: 1, faults: faults).config
    }

    static var trace: Trace {
        let alice = ParticipantInfo(participantId: "alice", isLocal: true)
        let frame = #"{"type":"connect","token":"eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl"}"#
        let events = [
            TraceEvent(time: .milliseconds(0), observer: "alice", kind: .hostCall(.join)),
            TraceEvent(time: .milliseconds(0), observer: "alice", kind: .renderer(.connectionStateChanged(.connecting, nil))),
            TraceEvent(time: .milliseconds(20), observer: "server", kind: .lost(frame: frame), peer: "alice"),
            TraceEvent(time: .milliseconds(40), observer: "server", kind: .delivered(.join(token: "t"), frame: frame), peer: "alice"),
            TraceEvent(time: .milliseconds(60), observer: "alice", kind: .delivered(.ping, frame: #"{"type":"ping"}"#), peer: "server"),
            TraceEvent(time: .milliseconds(60), observer: "alice", kind: .renderer(.connectionStateChanged(.connected, nil))),
            TraceEvent(time: .milliseconds(61), observer: "alice", kind: .renderer(.publishStateChanged(alice, .published, nil))),
            TraceEvent(time: .milliseconds(70), observer: hostile, kind: .delivered(.ping, frame: #"{"type":"<b>ping</b>"}"#), peer: "server"),
            TraceEvent(time: .milliseconds(80), observer: hostile, kind: .timerFired(.reconnectAttempt(1))),
        ]
        var trace = Trace()
        trace.append(contentsOf: events)
        return trace
    }

    static let deliveredCount = 3
    static let lostCount = 1

    static var violations: [Violation] {
        [Violation(invariant: "RND-1-order", rules: ["RND-1"], time: .milliseconds(61), observer: "alice", eventIndex: 6, message: "published <before> connected & more")]
    }
}
