import Testing
import Signaling

@Suite("Keepalive (SIG-6)")
struct KeepaliveTimerTests {
    @Test("defaults are the assumed 5 s interval and 10 s timeout")
    func defaults() {
        let timer = KeepaliveTimer()
        #expect(timer.interval == 5_000_000_000)
        #expect(timer.timeout == 10_000_000_000)
        #expect(!timer.isExpired(at: .max))
        #expect(timer.isPingDue(at: 0))
    }

    @Test("a ping unanswered for more than the timeout expires; exactly the timeout does not")
    func expiryBoundary() {
        var timer = KeepaliveTimer(interval: 100, timeout: 1_000)
        timer.pingSent(at: 5_000)
        #expect(timer.deadline == 6_000)
        #expect(!timer.isExpired(at: 5_000))
        #expect(!timer.isExpired(at: 5_999))
        #expect(!timer.isExpired(at: 6_000))
        #expect(timer.isExpired(at: 6_001))
    }

    @Test("a pong within the timeout clears the deadline")
    func pongClears() {
        var timer = KeepaliveTimer(interval: 100, timeout: 1_000)
        timer.pingSent(at: 0)
        timer.pongReceived(at: 1_000)
        #expect(timer.deadline == nil)
        #expect(!timer.isExpired(at: 1_000_000))
        #expect(timer.lastPongAt == 1_000)
        timer.pingSent(at: 2_000)
        #expect(timer.isExpired(at: 3_001))
    }

    @Test("the oldest unanswered ping governs the deadline")
    func oldestPing() {
        var timer = KeepaliveTimer(interval: 100, timeout: 1_000)
        timer.pingSent(at: 0)
        timer.pingSent(at: 500)
        #expect(timer.deadline == 1_000)
        #expect(timer.isExpired(at: 1_001))
        #expect(timer.lastPingSentAt == 500)
    }

    @Test("the next ping is due one interval after the last")
    func pingDue() {
        var timer = KeepaliveTimer(interval: 100, timeout: 1_000)
        timer.pingSent(at: 1_000)
        #expect(!timer.isPingDue(at: 1_099))
        #expect(timer.isPingDue(at: 1_100))
        #expect(!timer.isPingDue(at: 900))
    }

    @Test("deadlines near the end of the clock saturate instead of overflowing")
    func saturation() {
        var timer = KeepaliveTimer(interval: 1, timeout: 10)
        timer.pingSent(at: .max - 5)
        #expect(timer.deadline == .max)
        #expect(!timer.isExpired(at: .max))
    }
}
