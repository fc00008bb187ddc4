/// The world's clients, each behind its own copy-on-write box: copying the list (and so a
/// world, and a model checker node) retains one buffer, and changing a client copies only
/// that client, never its siblings. Reads borrow the client in place. Inlinable, so other
/// modules read clients as directly as from an array.
public struct ClientList: RandomAccessCollection, MutableCollection, Hashable, Sendable {
    @usableFromInline var boxes: [ClientBox]

    /// The clients, in order.
    public init(_ clients: [Client]) { boxes = clients.map(ClientBox.init) }

    @inlinable public var startIndex: Int { boxes.startIndex }
    @inlinable public var endIndex: Int { boxes.endIndex }

    @inlinable public subscript(index: Int) -> Client {
        _read { yield boxes[index].client }
        _modify {
            if !isKnownUniquelyReferenced(&boxes[index]) { boxes[index] = ClientBox(boxes[index].client) }
            yield &boxes[index].client
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
/// it is changed only while uniquely referenced, hence `@unchecked Sendable`.
@usableFromInline final class ClientBox: @unchecked Sendable {
    @usableFromInline var client: Client

    @usableFromInline init(_ client: Client) { self.client = client }
}
