import Simulation
import StageWorld

/// NET-2: a link's signaling bandwidth is a rate in bits per second, each direction its own. A
/// frame sent over a limited direction first waits for the frames that direction sent before
/// it, then takes its size in bits over the rate to send, and arrives no earlier than the
/// link's mean latency after that. The monitor keeps its own account of each direction's
/// sending, from the frames that appear in flight (new by their place in their connection's
/// sequence; a new connection starts an empty direction; each sent no earlier than the last
/// step the monitor saw), and checks each new frame's due time against it. Jitter, retransmissions, duplicates and reordering only delay a frame and
/// a frame the monitor never saw in flight only shortens its account, so the bound is a floor
/// under every fault: an arrival before it is a capacity the model got wrong (a size counted
/// in bytes, a direction left unlimited). Timed runs only: under the model checker's
/// timekeeping a delivery happens at the last timer's moment.
public struct TransmissionTimeMonitor: InvariantMonitor {
    public var name: String { "frames-take-their-transmission-time" }
    public var summary: String { "no frame is due before its link's bandwidth could have sent it, behind the frames sent before it, plus the link's latency" }
    public var rules: [String] { ["NET-2"] }
    /// Per link direction (`Network.direction`: `2 * client + 1` up, `2 * client` down): what it
    /// has sent so far.
    private var sending: [Int: Sending] = [:]
    /// Per limited direction, its client's connection and the number its next frame gets when
    /// the frames were last read: while none changes, nothing new is in flight.
    private var numberedAtLastRead: [Numbering?] = []
    /// The clock at the last step the monitor saw: a frame not in flight then was sent at or
    /// after it (a step without events, such as the service's ping, is not shown to monitors,
    /// so a frame's own sending moment may lie between the two).
    private var lastStepSeen: VirtualTime = .zero

    /// One direction's account: the connection, the last frame counted and when the direction
    /// finishes sending what it counted.
    struct Sending: Hashable, Sendable {
        var epoch: Int
        var lastSequence: UInt64
        var busyUntil: VirtualTime
    }

    /// Where a direction's numbering stood: the connection and the next frame's number.
    struct Numbering: Hashable, Sendable {
        var epoch: Int
        var nextSent: UInt64
    }

    /// A frame in flight for the first time: its direction, place and the earliest copy's due time.
    struct NewFrame {
        var direction: Int
        var epoch: Int
        var sequence: UInt64
        var bytes: Int
        /// When its earliest copy is due; nil for a frame already held for order.
        var due: VirtualTime?
    }

    public init() {}

    public mutating func observe(_ event: TraceEvent, index: Int, world: World) -> [Violation] { [] }

    public mutating func endOfStep(world: World, lastEventIndex: Int, time: VirtualTime) -> [Violation] {
        let sentNoEarlierThan = lastStepSeen
        lastStepSeen = world.now
        guard world.timekeeping == .everyEvent else { return [] }
        let renumbered = directionsNumberedSinceLastRead(world)
        guard !renumbered.isEmpty else { return [] }
        return newFrames(world, on: renumbered).compactMap { frame in
            let capacity = world.network.links[frame.direction / 2].signalingBitsPerSecond ?? 0
            var account = sending[frame.direction].flatMap { $0.epoch == frame.epoch ? $0 : nil }
                ?? Sending(epoch: frame.epoch, lastSequence: 0, busyUntil: .zero)
            let transmission = VirtualDuration(nanoseconds: UInt64(frame.bytes) * 8 * 1_000_000_000 / UInt64(capacity))
            account.busyUntil = max(sentNoEarlierThan, account.busyUntil) + transmission
            account.lastSequence = frame.sequence
            sending[frame.direction] = account
            let earliest = account.busyUntil + world.network.links[frame.direction / 2].latencyMean
            guard let due = frame.due, due < earliest else { return nil }
            let client = world.clients[frame.direction / 2].name
            let direction = frame.direction % 2 == 1 ? "uplink" : "downlink"
            return Violation(
                invariant: name, rules: rules, time: world.now, observer: client, eventIndex: lastEventIndex,
                message: "frame \(frame.sequence) (\(frame.bytes) bytes) on the \(direction) of \(client) at \(capacity) bit/s is due at \(due), before \(earliest), when the link could have sent it and its latency passed"
            )
        }
    }

    /// The limited directions that numbered a frame, or started a new connection, since the
    /// frames in flight were last read, in ascending order (a cheap test that spares reading
    /// them every step: a direction that numbered nothing has nothing new in flight).
    private mutating func directionsNumberedSinceLastRead(_ world: World) -> [Int] {
        let links = world.network.links
        if numberedAtLastRead.count != 2 * links.count { numberedAtLastRead = Array(repeating: nil, count: 2 * links.count) }
        var changed: [Int] = []
        for client in links.indices where links[client].signalingBitsPerSecond ?? 0 > 0 {
            let epoch = world.clients[client].epoch
            for direction in Network.direction(clientIndex: client, uplink: false)...Network.direction(clientIndex: client, uplink: true) {
                let next = Numbering(epoch: epoch, nextSent: world.network.directions[direction].nextSent)
                if numberedAtLastRead[direction] != next { changed.append(direction) }
                numberedAtLastRead[direction] = next
            }
        }
        return changed
    }

    /// The frames in flight on `directions` that the account has not counted, by direction and
    /// then in the order their connection numbered them; a duplicate's copies (one connection,
    /// one number) as one, at the earlier due time. A frame held for order has arrived already:
    /// it is counted, with no due time to judge.
    private func newFrames(_ world: World, on directions: [Int]) -> [NewFrame] {
        var found: [NewFrame] = []
        func note(_ envelope: Envelope, due: VirtualTime?) {
            guard envelope.sequence != 0 else { return }
            let direction = Network.direction(clientIndex: envelope.clientIndex, uplink: envelope.isUplink)
            guard directions.contains(direction) else { return }
            if let account = sending[direction], account.epoch > envelope.epoch
                || (account.epoch == envelope.epoch && account.lastSequence >= envelope.sequence) { return }
            found.append(NewFrame(direction: direction, epoch: envelope.epoch, sequence: envelope.sequence, bytes: envelope.frame.utf8.count, due: due))
        }
        for entry in world.pending.entries {
            if case .delivery(let envelope) = entry.payload { note(envelope, due: entry.due) }
        }
        for direction in directions { for envelope in world.network.directions[direction].held { note(envelope, due: nil) } }
        found.sort { ($0.direction, $0.epoch, $0.sequence) < ($1.direction, $1.epoch, $1.sequence) }
        var frames: [NewFrame] = []
        for frame in found {
            guard let last = frames.last, (last.direction, last.epoch, last.sequence) == (frame.direction, frame.epoch, frame.sequence) else {
                frames.append(frame)
                continue
            }
            frames[frames.count - 1].due = [last.due, frame.due].compactMap { $0 }.min()
        }
        return frames
    }

    public static var keyReads: WorldReads { .clock }

    /// How long each direction stays busy with what it counted, from now; what the next frame
    /// waits behind. (Empty under the model checker, which this monitor does not judge.)
    public func encodeState(into writer: inout CanonicalWriter, world: World) {
        writer.writeUnordered(sending.filter { $0.value.busyUntil > world.now }) { writer, entry in
            writer.writeClientIndex(entry.key / 2)
            writer.write(entry.key % 2 == 1)
            writer.write((entry.value.busyUntil - world.now).nanoseconds)
        }
    }
}
