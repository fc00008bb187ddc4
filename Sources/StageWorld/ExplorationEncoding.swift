import Simulation

/// A part of the world the model checker's state encoding writes with nothing but the writer
/// (its renaming maps give symmetry); absolute times it holds are left out.
protocol ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter)
}

extension CanonicalWriter {
    /// The tag byte of an enum case.
    mutating func writeTag(_ tag: UInt8) { write(tag) }

    /// A payload-free enum case as its tag byte: its position among all cases.
    mutating func writeCase<Case: CaseIterable & Equatable>(_ value: Case) where Case.AllCases == [Case] {
        write(UInt8(truncatingIfNeeded: Case.allCases.firstIndex(of: value)!))
    }

    /// Values whose order matters: the count, then each value.
    mutating func writeOrdered<Value: ExplorationEncodable>(_ values: [Value]) {
        write(UInt32(values.count))
        for value in values { value.encode(to: &self) }
    }

    /// Values whose order carries no meaning (or derives from names): sorted by their bytes.
    mutating func writeUnordered<Values: Sequence>(_ values: Values) where Values.Element: ExplorationEncodable {
        writeUnordered(values) { writer, value in value.encode(to: &writer) }
    }

    /// A presence tag, then the value when there is one.
    mutating func writeOptional<Value: ExplorationEncodable>(_ value: Value?) {
        writeOptional(value) { writer, value in value.encode(to: &writer) }
    }

    /// A presence tag, then the value written by `encode` when there is one.
    mutating func writeOptional<Value>(_ value: Value?, _ encode: (inout CanonicalWriter, Value) -> Void) {
        guard let value else { return writeTag(0) }
        writeTag(1)
        encode(&self, value)
    }

    /// The difference of two transport sequence numbers, signed: a position relative to the
    /// receiving side, so that ever-growing sequence numbers stay out of the encoding.
    mutating func writeRelative(_ sequence: UInt64, to origin: UInt64) {
        write(Int(Int64(bitPattern: sequence &- origin)))
    }

    /// A pending timer's remaining time, due - now, in nanoseconds (signed: a timed run may
    /// have passed a timer it has not fired yet). Under the checker's timekeeping the clock only
    /// moves to timers' due times, so these stay bounded by the longest timer delay.
    mutating func writeRemaining(until due: VirtualTime, from now: VirtualTime) {
        write(Int(Int64(bitPattern: due.nanoseconds &- now.nanoseconds)))
    }

    /// A connection number relative to its client's current one, so that the ever-growing
    /// count of reconnects stays out of the encoding: the model only compares connection
    /// numbers of one client with each other and adds one per new connection. A frame
    /// injected for whatever connection is current keeps its own tag.
    mutating func writeEpoch(_ epoch: Int, relativeTo current: Int) {
        guard epoch != Envelope.currentConnection else { return writeTag(0) }
        writeTag(1)
        write(epoch - current)
    }
}
