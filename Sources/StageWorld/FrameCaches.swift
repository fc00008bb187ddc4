#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The frames this thread has made, by message, stage and receiving side: a message's frame
/// (its text and what its receiver decodes it to) never changes, and broadcasts and keepalive
/// frames repeat (SIG-1), so a frame is encoded and decoded once per thread and then shared.
/// Each thread keeps its own table, so making a frame takes one hash lookup and no lock.
final class FrameTable {
    struct Key: Hashable {
        var message: WireMessage
        var channelId: String
        var atServer: Bool
    }

    private var frames: [Key: FrameContent] = [:]

    /// The frame carrying `message` on `channelId` to the server or a client: this thread's
    /// earlier one when it made it before, else a new one, then remembered.
    static func frame(carrying message: WireMessage, channelId: String, atServer: Bool) -> FrameContent {
        current.frame(for: Key(message: message, channelId: channelId, atServer: atServer))
    }

    private func frame(for key: Key) -> FrameContent {
        if let known = frames[key] { return known }
        let made = FrameContent(encoding: key.message, channelId: key.channelId, atServer: key.atServer)
        if frames.count >= Self.capacity { frames.removeAll(keepingCapacity: true) }
        frames[key] = made
        return made
    }

    private static let capacity = 20_000

    /// This thread's table, made on first use and released when the thread ends.
    private static var current: FrameTable {
        if let pointer = pthread_getspecific(threadKey) { return Unmanaged<FrameTable>.fromOpaque(pointer).takeUnretainedValue() }
        let table = FrameTable()
        pthread_setspecific(threadKey, Unmanaged.passRetained(table).toOpaque())
        return table
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<FrameTable>.fromOpaque(pointer).release()
        }
        return key
    }()
}
