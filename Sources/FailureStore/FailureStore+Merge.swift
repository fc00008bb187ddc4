extension FailureStore {
    /// What ``FailureStore/merge(_:)`` did with one source's records.
    public struct MergeCount: Equatable, Sendable {
        /// Records the source held.
        public var records = 0
        /// Records added to the store as new failures.
        public var new = 0
        /// Records that duplicated a failure already in the store (or added earlier in the
        /// same merge); each only raised that failure's count of finds.
        public var duplicates = 0

        public init(records: Int = 0, new: Int = 0, duplicates: Int = 0) {
            (self.records, self.new, self.duplicates) = (records, new, duplicates)
        }
    }

    /// Adds the records of each source, in order, to this store in ONE transaction: either all
    /// of them are merged or, on any error, none is.
    ///
    /// A record duplicates a stored failure with the same invariant and the same shrunk scenario
    /// text, or with the same `(seed, invariant, trace hash)` key (the key ``save(_:)`` keeps
    /// single). A duplicate is not stored again: its `timesFound` is added to the stored
    /// failure's. A new record keeps its seed, messages, run label, path and `timesFound`, and
    /// gets a new id. Returns one count per source, in order.
    public func merge(_ sources: [[FailureRecord]]) throws(FailureStoreError) -> [MergeCount] {
        try inImmediateTransaction { () throws(FailureStoreError) -> [MergeCount] in
            var counts: [MergeCount] = []
            for records in sources {
                var count = MergeCount(records: records.count)
                for record in records {
                    if try mergeOne(record) { count.new += 1 } else { count.duplicates += 1 }
                }
                counts.append(count)
            }
            return counts
        }
    }

    /// Merges one record inside the open transaction; true when it was new.
    private func mergeOne(_ record: FailureRecord) throws(FailureStoreError) -> Bool {
        guard record.timesFound >= 1 else {
            throw .corruptRow(id: record.id, column: "times_found", reason: "is \(record.timesFound), below 1")
        }
        if let stored = try mergeDuplicate(of: record) {
            try addFinds(record.timesFound, to: stored)
            return false
        }
        let id = try insert(record)
        if record.timesFound > 1 { try addFinds(record.timesFound - 1, to: id) }
        return true
    }

    /// The id of the stored failure `record` duplicates, if any.
    private func mergeDuplicate(of record: FailureRecord) throws(FailureStoreError) -> Int64? {
        let lookup = try Statement(SQL.findMergeDuplicate, on: db)
        try lookup.bind(1, record.invariant)
        try lookup.bind(2, record.scenarioYAML)
        try lookup.bind(3, Int64(bitPattern: record.seed))
        try lookup.bind(4, record.traceHashHex)
        return try lookup.step() ? lookup.int64(0) : nil
    }

    /// Counts `finds` more finds of failure `id`.
    private func addFinds(_ finds: Int, to id: Int64) throws(FailureStoreError) {
        let statement = try Statement(SQL.addFinds, on: db)
        try statement.bind(1, id)
        try statement.bind(2, Int64(finds))
        try statement.run()
    }
}
