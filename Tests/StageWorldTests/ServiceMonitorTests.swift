import Checking
import Drivers
import Signaling
import Simulation
import StageCore
import Testing
@testable import StageWorld

/// The service-side monitors fire on a world or trace that breaks their rule and stay quiet on
/// one that keeps it (TOK-8, SIG-2, SIG-6, STG-3).
@Suite("Service-side monitors (TOK-8, SIG-2, SIG-6, STG-3)")
struct ServiceMonitorTests {
    /// Both clients joined, with every event of the run observed by `monitor`.
    /// The violations `monitor` reports watching two clients join, each step's events with the
    /// world after that step (as every driver shows them).
    private func joined<Monitor: InvariantMonitor>(_ monitor: inout Monitor, until end: VirtualTime = .seconds(8)) -> [Violation] {
        var simulator = Simulator(world: twoClientWorld(), seed: 5)
        var found: [Violation] = [], index = 0
        simulator.run(until: end) { _, events, world in
            for event in events {
                found += monitor.observe(event, index: index, world: world)
                index += 1
            }
        }
        return found
    }

    @Test("a subscription granted to a client whose service-side token lacks allow_subscribe is reported")
    func subscribeEnforcement() throws {
        var world = simulate(twoClientWorld(), seed: 5, until: .seconds(3)).0.world
        let alice = try #require(world.clientIndex(named: "alice"))
        let record = try #require(world.server.participants.firstIndex { $0.clientIndex == alice })
        let grant = Envelope(from: .server, to: .client(alice), message: .subscribeAccepted(publisherId: "bob"), epoch: world.server.participants[record].epoch, channelId: "stage-1")
        _ = world.pending.schedule(.delivery(grant), at: world.now + .milliseconds(20))
        let request = TraceEvent(time: world.now, observer: "server", kind: .delivered(.subscribe(publisherId: "bob", .audioVideo), frame: ""))
        var allowed = SubscribeEnforcementMonitor()
        #expect(allowed.observe(request, index: 0, world: world).isEmpty, "alice's token allows subscribing")
        world.server.participants[record].claims.capabilities.canSubscribe = false
        var forbidden = SubscribeEnforcementMonitor()
        let found = forbidden.observe(request, index: 0, world: world)
        #expect(found.map(\.message) == ["the stage service gave alice a subscription to bob, but its token does not allow subscribing"])
    }

    @Test("a token or private connect metadata in a frame to someone else is reported; in its owner's own frames it is not")
    func secrets() throws {
        let secret = ConnectMetadata(metadata: ["secret": "alice-s3cret"], notifyMetadata: ["name": "alice"])
        let clients = ["bob", "alice"].map { name in
            ClientConfig(name: name, token: .raw(signedToken(name)), connectMetadata: name == "alice" ? secret : ConnectMetadata())
        }
        let world = World(stageId: "stage-1", clients: clients, links: [:], defaultLink: LinkConditions(), seed: 1)
        let alice = try #require(world.clientIndex(named: "alice"))
        let signature = try #require(world.clients[alice].token.split(separator: ".").last)
        func frame(to observer: String, _ text: String) -> TraceEvent {
            TraceEvent(time: .zero, observer: observer, kind: .delivered(.leave, frame: text))
        }
        var monitor = SecretMonitor()
        #expect(monitor.observe(frame(to: "bob", #"{"type":"notify","metadata":{"name":"alice"}}"#), index: 0, world: world).isEmpty)
        #expect(monitor.observe(frame(to: "alice", #"{"metadata":{"secret":"alice-s3cret"},"t":"\#(signature)"}"#), index: 1, world: world).isEmpty)
        let metadata = monitor.observe(frame(to: "bob", #"{"type":"notify","metadata":{"secret":"alice-s3cret"}}"#), index: 2, world: world)
        #expect(metadata.map(\.message) == ["a frame to bob carries the private connect metadata of alice"])
        let token = monitor.observe(frame(to: "bob", "{\"token\":\"x.y.\(signature)\"}"), index: 3, world: world)
        #expect(token.map(\.message) == ["a frame to bob carries the token of alice"])
        let exchanged = StageKeys.standard.token(.signed(StageKeys.claims(participantId: "alice", stageId: "stage-1", userId: "new"), by: .app))
        _ = monitor.observe(TraceEvent(time: .zero, observer: "alice", kind: .hostCall(.exchangeToken(exchanged))), index: 4, world: world)
        let later = monitor.observe(frame(to: "server", exchanged), index: 5, world: world) + monitor.observe(frame(to: "bob", exchanged), index: 6, world: world)
        #expect(later.map(\.message) == ["a frame to bob carries the exchanged token of alice"])
    }

    @Test("a frame searched before a secret was added is searched again after, and each receiver of one frame is judged")
    func secretSearchesRemembered() throws {
        let clients = ["alice", "bob", "carol"].map { ClientConfig(name: $0, token: .raw(signedToken($0))) }
        let world = World(stageId: "stage-1", clients: clients, links: [:], defaultLink: LinkConditions(), seed: 1)
        let exchanged = StageKeys.standard.token(.signed(StageKeys.claims(participantId: "alice", stageId: "stage-1", userId: "later"), by: .app))
        // One frame text shared by every copy, as a broadcast, a retransmission or a duplicate shares it.
        let frame = "{\"type\":\"push\",\"token\":\"\(exchanged)\"}"
        func copy(to observer: String, _ kind: (String) -> TraceEvent.Kind) -> TraceEvent {
            TraceEvent(time: .zero, observer: observer, kind: kind(frame))
        }
        var monitor = SecretMonitor()
        #expect(monitor.observe(copy(to: "bob") { .delivered(.leave, frame: $0) }, index: 0, world: world).isEmpty, "not a secret yet")
        _ = monitor.observe(TraceEvent(time: .zero, observer: "alice", kind: .hostCall(.exchangeToken(exchanged))), index: 1, world: world)
        let again = monitor.observe(copy(to: "bob") { .duplicate(frame: $0) }, index: 2, world: world)
        #expect(again.map(\.message) == ["a frame to bob carries the exchanged token of alice"])
        let toCarol = monitor.observe(copy(to: "carol") { .delivered(.leave, frame: $0) }, index: 3, world: world)
        #expect(toCarol.map(\.message) == ["a frame to carol carries the exchanged token of alice"])
        #expect(monitor.observe(copy(to: "alice") { .lost(frame: $0) }, index: 4, world: world).isEmpty, "its owner may receive it")
    }

    @Test("a connection held open past an unanswered ping's deadline, or dropped although it answered, is reported")
    func keepaliveVerdict() throws {
        var monitor = KeepaliveVerdictMonitor()
        #expect(joined(&monitor, until: .seconds(20)).isEmpty, "default keepalive, every ping answered")
        let (simulator, _) = simulate(twoClientWorld(), seed: 5, until: .seconds(20))
        var world = simulator.world
        let record = try #require(world.server.participants.firstIndex { $0.info.participantId == "alice" })
        let pong = TraceEvent(time: world.now, observer: "server", kind: .delivered(.pong, frame: Self.pongFrame))
        var quiet = monitor
        #expect(quiet.observe(pong, index: 0, world: world).isEmpty)
        world.server.participants[record].pingsSent += 1
        var late = monitor
        #expect(late.observe(pong, index: 0, world: world).first?.message.contains("had no pong within the pong timeout, yet the service keeps connection") == true)
        #expect(monitor.finish(world: world).count == 1)
        let heard = try #require(simulator.world.server.participant("alice")?.pongsHeard)
        func dropped(_ ping: Int) -> TraceEvent {
            TraceEvent(time: world.now, observer: "server", kind: .service(.ejected(participantId: "alice", reason: "ping \(ping) unanswered")))
        }
        var answered = monitor
        #expect(answered.observe(dropped(heard), index: 0, world: simulator.world).first?.message.contains("answered ping \(heard) in time") == true)
        var unanswered = monitor
        #expect(unanswered.observe(dropped(heard + 1), index: 0, world: simulator.world).isEmpty)
    }

    /// The frame a client's pong travels in.
    static let pongFrame = Envelope(from: .client(0), to: .server, message: .pong, epoch: 1, channelId: "stage").frame

    @Test("a pong is counted by its frame's Sora type, not by the message the service decoded it to")
    func keepaliveReadsTheFrame() throws {
        let (simulator, _) = simulate(twoClientWorld(), seed: 5, until: .seconds(20))
        var world = simulator.world
        let record = try #require(world.server.participants.firstIndex { $0.info.participantId == "alice" })
        world.server.participants[record].pingsSent += 1
        let misread = TraceEvent(time: world.now, observer: "server", kind: .delivered(.ping, frame: Self.pongFrame), peer: "alice")
        let unread = TraceEvent(time: world.now, observer: "server", kind: .delivered(.pong, frame: ""), peer: "alice")
        var monitor = KeepaliveVerdictMonitor()
        #expect(joined(&monitor, until: .seconds(20)).isEmpty)
        var counted = monitor
        #expect(counted.observe(misread, index: 0, world: world).first?.message.contains("had no pong within the pong timeout") == true)
        var ignored = monitor
        #expect(ignored.observe(unread, index: 0, world: world).isEmpty)
    }

    @Test("pongs are counted per connection from their deliveries: a counter the service carries over from the old connection hides no late pong")
    func keepaliveCountsItsOwnPongs() throws {
        var monitor = KeepaliveVerdictMonitor()
        #expect(joined(&monitor, until: .seconds(20)).isEmpty)
        let (simulator, _) = simulate(twoClientWorld(), seed: 5, until: .seconds(20))
        var world = simulator.world
        let record = try #require(world.server.participants.firstIndex { $0.info.participantId == "alice" })
        #expect(world.server.participants[record].pongsHeard > 1)
        world.server.participants[record].epoch += 1
        world.server.participants[record].pingsSent = 0
        let newConnection = TraceEvent(time: world.now, observer: "server", kind: .delivered(.leave, frame: ""))
        #expect(monitor.observe(newConnection, index: 0, world: world).isEmpty)
        world.server.participants[record].pingsSent = 1
        let pong = TraceEvent(time: world.now, observer: "server", kind: .delivered(.pong, frame: Self.pongFrame))
        let late = monitor.observe(pong, index: 1, world: world).map(\.message)
        #expect(late == ["ping 1 of alice had no pong within the pong timeout, yet the service keeps connection \(world.server.participants[record].epoch) open"])
    }

    @Test("a join unanswered for its whole retry window must end FAILED")
    func joinRetryWindow() throws {
        let (simulator, events) = simulate(twoClientWorld(), seed: 5, until: .milliseconds(1))
        let world = simulator.world
        #expect(world.clients[try #require(world.clientIndex(named: "alice"))].view.local.connectionState == .connecting)
        var monitor = JoinRetryWindowMonitor()
        for (index, event) in events.enumerated() { #expect(monitor.observe(event, index: index, world: world).isEmpty) }
        let afterWindow = TraceEvent(time: .zero + .seconds(30) + .milliseconds(1), observer: "bob", kind: .hostCall(.refreshStrategy))
        var pendingTimeout = monitor
        #expect(pendingTimeout.observe(afterWindow, index: 9, world: world).isEmpty, "its timeout, due within the window, has not fired yet (out-of-order exploration)")
        var timeoutGone = world
        timeoutGone.pending.removeAll { payload in
            if case .timer(_, .joinAttemptTimeout) = payload { return true }
            return false
        }
        var silent = monitor
        #expect(silent.observe(afterWindow, index: 9, world: timeoutGone).map(\.observer) == ["alice"])
        #expect(monitor.finish(world: world).isEmpty, "the window is not over yet at the end of this world")
        let failed = TraceEvent(time: .zero + .seconds(30), observer: "alice", kind: .renderer(.connectionStateChanged(.disconnected, StageError(code: .failed, category: .join, isFatal: true))))
        var failing = monitor
        #expect(failing.observe(failed, index: 8, world: world).isEmpty)
        #expect(failing.observe(afterWindow, index: 9, world: world).isEmpty)
    }

    @Test("no join attempt times out before its attemptTimeout, and an overlapping join() gives its first attempt the whole timeout")
    func joinAttemptTimeout() throws {
        let (simulator, events) = simulate(twoClientWorld(), seed: 5, until: .milliseconds(1))
        let world = simulator.world
        let alice = try #require(world.clientIndex(named: "alice"))
        #expect(world.clients[alice].view.local.connectionState == .connecting)
        let timeout = world.clients[alice].config.joinRetry.attemptTimeout
        var monitor = JoinRetryWindowMonitor()
        for (index, event) in events.enumerated() { #expect(monitor.observe(event, index: index, world: world).isEmpty) }
        func timedOut(at time: VirtualTime) -> TraceEvent {
            TraceEvent(time: time, observer: "alice", kind: .timerFired(.joinAttemptTimeout(attempt: 1)))
        }
        var early = monitor
        #expect(early.observe(timedOut(at: .zero + (timeout - .milliseconds(1))), index: 8, world: world).map(\.observer) == ["alice"])
        var onTime = monitor
        #expect(onTime.observe(timedOut(at: .zero + timeout), index: 8, world: world).isEmpty)
        var secondEarly = onTime
        #expect(secondEarly.observe(timedOut(at: .zero + timeout + (timeout - .milliseconds(1))), index: 9, world: world).count == 1, "the next attempt begins when the one before timed out")
        #expect(onTime.observe(timedOut(at: .zero + timeout + timeout), index: 9, world: world).isEmpty)
        var rejoined = monitor
        let overlapping = TraceEvent(time: .zero + .seconds(1), observer: "alice", kind: .hostCall(.join))
        #expect(rejoined.observe(overlapping, index: 8, world: world).isEmpty)
        var cancelledAttemptsTime = rejoined
        #expect(cancelledAttemptsTime.observe(timedOut(at: .zero + timeout), index: 9, world: world).count == 1, "the cancelled attempt's timeout is not the new one's")
        #expect(rejoined.observe(timedOut(at: .zero + .seconds(1) + timeout), index: 9, world: world).isEmpty)
    }
}
