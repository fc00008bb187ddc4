/// Stream ids in canonical encodings: the state fingerprints of the world (StageWorld) and of
/// the invariant monitors (Checking) write them alike.
extension CanonicalWriter {
    /// A stream id built as `<participant id>-<announcement>` (the subscriber model's ids):
    /// the participant id goes through the renaming, the announcement as it is; any other id
    /// is written whole.
    public mutating func writeStreamId(_ streamId: String) {
        let dash = streamId.lastIndex(of: "-")
        let suffix = dash.map { streamId[streamId.index(after: $0)...] } ?? ""
        guard let dash, dash != streamId.startIndex, !suffix.isEmpty, suffix.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            write(UInt8(0))
            return write(streamId)
        }
        write(UInt8(1))
        writeName(String(streamId[..<dash]))
        write(String(suffix))
    }
}
