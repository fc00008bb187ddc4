import CXXHash

/// XXH3-64 (seed 0) of bytes that arrive in pieces: equal to `XXH3.hash64` of them all joined,
/// without holding them. A value: a copy hashes on independently (the state is copied on the
/// first write to a shared one).
public struct XXH3Stream: @unchecked Sendable {
    /// libxxhash's streaming state, owned by this box alone once written to.
    private final class State {
        let pointer: OpaquePointer

        init() {
            pointer = XXH3_createState()
            XXH3_64bits_reset(pointer)
        }

        init(copying other: State) {
            pointer = XXH3_createState()
            XXH3_copyState(pointer, other.pointer)
        }

        deinit { XXH3_freeState(pointer) }
    }

    private var state = State()

    public init() {}

    /// Adds the UTF-8 bytes of `text`.
    public mutating func update(_ text: String) {
        if !isKnownUniquelyReferenced(&state) { state = State(copying: state) }
        var text = text
        text.withUTF8 { bytes in _ = XXH3_64bits_update(state.pointer, bytes.baseAddress, bytes.count) }
    }

    /// Adds `bytes`.
    public mutating func update(_ bytes: [UInt8]) {
        if !isKnownUniquelyReferenced(&state) { state = State(copying: state) }
        bytes.withUnsafeBufferPointer { buffer in _ = XXH3_64bits_update(state.pointer, buffer.baseAddress, buffer.count) }
    }

    /// The hash of every byte added so far.
    public var value: UInt64 { XXH3_64bits_digest(state.pointer) }
}
