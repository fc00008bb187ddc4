/// The world's clients, each behind its own copy-on-write box: copying the list (and so a
/// world, and a model checker node) retains one buffer, and changing a client copies only
/// that client, never its siblings. Reads borrow the client in place, through its box's
/// address: reading a client's field copies no client, even around a call the optimizer
/// cannot see into. Inlinable, so other modules read clients as directly as from an array.
public struct ClientList: RandomAccessCollection, MutableCollection, Hashable, Sendable {
    @usableFromInline var boxes: [ClientBox]

    /// The clients, in order.
    public init(_ clients: [Client]) { boxes = clients.map(ClientBox.init) }

    @inlinable public var startIndex: Int { boxes.startIndex }
    @inlinable public var endIndex: Int { boxes.endIndex }

    /// The box (kept alive by `boxes` for as long as the list is accessed) holds the client at
    /// a fixed address; a change first gives the list its own box when another list shares it.
    @inlinable public subscript(index: Int) -> Client {
        unsafeAddress { UnsafePointer(boxes[index].storage) }
        unsafeMutableAddress {
            if !isKnownUniquelyReferenced(&boxes[index]) { boxes[index] = ClientBox(boxes[index].storage.pointee) }
            return boxes[index].storage
        }
    }

    public static func == (left: ClientList, right: ClientList) -> Bool {
        left.boxes.count == right.boxes.count && zip(left.boxes, right.boxes).allSatisfy { $0 === $1 || $0.client == $1.client }
    }

    public func hash(into hasher: inout Hasher) {
        for box in boxes { hasher.combine(box.client) }
    }
}

/// One client, shared by every copy of the lists holding it until one of them changes it;
/// it is changed only while uniquely referenced, hence `@unchecked Sendable`. The client lives
/// in memory the box allocates, so that a list can hand out its address.
@usableFromInline final class ClientBox: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Client>

    @usableFromInline init(_ client: Client) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: client)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The client, read in place.
    var client: Client { storage.pointee }
}
