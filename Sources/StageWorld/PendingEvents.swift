import Simulation

/// A world's pending events (NET-1): the event queue, and beside it an index kept in step with
/// every change to the queue: each pending timer with its sequence number and due time, per
/// owner (a client's own timers per client; the stage service's timers per client they keep),
/// and the sequence numbers of the frames in flight per link direction, ascending. The hot path asks the index instead
/// of scanning the whole queue: which timers a changed client or the service holds
/// (`World.cancelSpentTimers`), who holds timers at all (`World.touchTimerOwners`), whether a
/// lost frame has followers on its link, whether a service deadline is still pending.
///
/// The index is derived from the queue, so it takes no part in equality or hashing: equal
/// queues are equal pending events, whatever order their histories left the index lists in.
public struct PendingEvents: Hashable, Sendable {
    public typealias Entry = EventQueue<PendingEvent>.Entry

    /// One pending timer: its sequence number, due time and what it is.
    public struct PendingTimer<Kind: Hashable & Sendable>: Hashable, Sendable {
        public var sequence: UInt64
        public var due: VirtualTime
        public var timer: Kind
    }

    typealias Queue = EventQueue<PendingEvent>

    public private(set) var queue = EventQueue<PendingEvent>()
    private var index = Ledger()

    public init() {}

    /// Every pending entry, in heap order (`EventQueue.entries`).
    public var entries: [Entry] { queue.entries }
    /// Every pending entry in firing order.
    public var sortedEntries: [Entry] { queue.sortedEntries }
    /// The entry that fires next.
    public var first: Entry? { queue.first }
    public var count: Int { queue.count }
    public var isEmpty: Bool { queue.isEmpty }
    /// The sequence number the next scheduled entry gets.
    public var nextSequence: UInt64 { queue.nextSequence }

    public func entry(sequence: UInt64) -> Entry? { queue.entry(sequence: sequence) }

    /// Schedules `payload` at `due`; returns its sequence number.
    @discardableResult
    public mutating func schedule(_ payload: PendingEvent, at due: VirtualTime) -> UInt64 {
        let sequence = queue.schedule(payload, at: due)
        index.insert(payload, sequence: sequence, due: due)
        return sequence
    }

    /// Removes and returns the entry with this sequence number, if it is still pending.
    @discardableResult
    public mutating func remove(sequence: UInt64) -> Entry? {
        guard let entry = queue.remove(sequence: sequence) else { return nil }
        index.remove(entry.payload, sequence: sequence)
        return entry
    }

    /// Removes every entry whose payload matches, in one pass; returns how many were removed.
    @discardableResult
    public mutating func removeAll(where shouldRemove: (PendingEvent) -> Bool) -> Int {
        removeEntries { shouldRemove($0.payload) }
    }

    /// Removes every entry that matches, in one pass; returns how many were removed.
    @discardableResult
    public mutating func removeEntries(where shouldRemove: (Entry) -> Bool) -> Int {
        var index = Ledger()
        swap(&index, &self.index)
        defer { swap(&index, &self.index) }
        return queue.removeEntries { entry in
            guard shouldRemove(entry) else { return false }
            index.remove(entry.payload, sequence: entry.sequence)
            return true
        }
    }

    /// `EventQueue.reschedule` for a lost frame (`sequence`) on link direction `direction`
    /// (`Network.direction`) and the frames behind it there, which the index lists: no scan of
    /// the queue's payloads. `update` keeps each frame on its link.
    mutating func reschedule(sequence: UInt64, onLink direction: Int, update: (inout Entry) -> Void) {
        let onLink = index.deliveries(onLink: direction)
        let lost = Queue.insertionPoint(of: sequence, inAscending: onLink)
        let followers = lost < onLink.count ? Array(onLink[(lost + 1)...]) : []
        let firstRenumbered = queue.nextSequence
        let renumbered = queue.reschedule(sequence: sequence, followers: followers, update: update)
        guard renumbered > 0 else { return }
        index.renumberDeliveries(onLink: direction, from: lost, to: firstRenumbered..<firstRenumbered + UInt64(renumbered))
    }

    /// The pending timers client `client` set, in the order they were scheduled.
    public func timers(ofClient client: Int) -> [PendingTimer<ClientTimer>] {
        index.clientTimers.indices.contains(client) ? index.clientTimers[client] : []
    }

    /// The pending timers the stage service set for client `client`'s connections, in the
    /// order they were scheduled.
    public func serviceTimers(forClient client: Int) -> [PendingTimer<ServerTimer>] {
        index.serviceTimers.indices.contains(client) ? index.serviceTimers[client] : []
    }

    /// Whether the service has any timer pending.
    public var hasServiceTimers: Bool { index.serviceTimerCount > 0 }

    /// The clients with a timer of their own pending, in index order.
    var clientsWithTimers: some Sequence<Int> { index.clientTimers.indices.lazy.filter { index.clientTimers[$0].count > 0 } }

    /// Client indices the service has timers for (some may have none left).
    var serviceTimerClients: Range<Int> { index.serviceTimers.indices }

    /// How many frames are in flight on a link direction (`Network.direction`).
    func deliveryCount(onLink direction: Int) -> Int { index.deliveries(onLink: direction).count }

    /// Whether this service timer is pending.
    public func isPending(_ timer: ServerTimer) -> Bool {
        serviceTimers(forClient: timer.clientIndex).contains { $0.timer == timer }
    }

    public static func == (left: PendingEvents, right: PendingEvents) -> Bool { left.queue == right.queue }

    public func hash(into hasher: inout Hasher) { hasher.combine(queue) }
}

extension PendingEvents {
    /// The index itself: timers per owner, the frames in flight per link direction (their
    /// sequence numbers, ascending: a new entry's number is the highest yet).
    private struct Ledger: Sendable {
        var clientTimers: [[PendingTimer<ClientTimer>]] = []
        var serviceTimers: [[PendingTimer<ServerTimer>]] = []
        var serviceTimerCount = 0
        private var deliveriesByLink: [[UInt64]] = []

        func deliveries(onLink direction: Int) -> [UInt64] {
            deliveriesByLink.indices.contains(direction) ? deliveriesByLink[direction] : []
        }

        /// The link's frames from position `position` on were renumbered `numbers`.
        mutating func renumberDeliveries(onLink direction: Int, from position: Int, to numbers: Range<UInt64>) {
            deliveriesByLink[direction].replaceSubrange(position..., with: numbers)
        }

        mutating func insert(_ payload: PendingEvent, sequence: UInt64, due: VirtualTime) {
            switch payload {
            case .timer(let client, let timer):
                Self.grow(&clientTimers, to: client)
                clientTimers[client].append(PendingTimer(sequence: sequence, due: due, timer: timer))
            case .serverTimer(let timer):
                Self.grow(&serviceTimers, to: timer.clientIndex)
                serviceTimers[timer.clientIndex].append(PendingTimer(sequence: sequence, due: due, timer: timer))
                serviceTimerCount += 1
            case .delivery:
                guard let direction = payload.deliveryDirection else { return }
                Self.grow(&deliveriesByLink, to: direction)
                deliveriesByLink[direction].append(sequence)
            case .hostCall:
                break
            }
        }

        mutating func remove(_ payload: PendingEvent, sequence: UInt64) {
            switch payload {
            case .timer(let client, _):
                clientTimers[client].removeAll { $0.sequence == sequence }
            case .serverTimer(let timer):
                serviceTimers[timer.clientIndex].removeAll { $0.sequence == sequence }
                serviceTimerCount -= 1
            case .delivery:
                guard let direction = payload.deliveryDirection else { return }
                let position = Queue.insertionPoint(of: sequence, inAscending: deliveriesByLink[direction])
                deliveriesByLink[direction].remove(at: position)
            case .hostCall:
                break
            }
        }

        private static func grow<Element>(_ lists: inout [[Element]], to position: Int) {
            if lists.count <= position { lists += Array(repeating: [], count: position + 1 - lists.count) }
        }
    }
}
