import CSQLite

/// `SQLITE_TRANSIENT`: SQLite copies bound text before the bind call returns.
/// (The C macro is a cast of -1 and is not imported into Swift.)
@inline(__always)
func sqliteTransient() -> sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// SQLite's message for the last error on `db`, never crashing on a NULL pointer.
func errorMessage(_ db: OpaquePointer?) -> String {
    guard let db, let text = sqlite3_errmsg(db) else { return "unknown SQLite error" }
    return String(cString: text)
}

/// The generic English text for a result code (for when there is no connection).
func errorString(_ code: Int32) -> String {
    guard let text = sqlite3_errstr(code) else { return "SQLite error \(code)" }
    return String(cString: text)
}

/// One prepared statement, finalized when it goes out of scope. Values are only ever
/// passed through bound parameters.
struct Statement: ~Copyable {
    let handle: OpaquePointer
    let db: OpaquePointer
    let sql: String

    init(_ sql: String, on db: OpaquePointer) throws(FailureStoreError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            let message = rc == SQLITE_OK ? "the SQL text holds no statement" : errorMessage(db)
            sqlite3_finalize(statement)  // harmless on NULL
            throw .prepare(sql: sql, code: rc, message: message)
        }
        self.handle = statement
        self.db = db
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Binding (1-based indices)

    func bind(_ index: Int32, _ value: Int64) throws(FailureStoreError) {
        try check(sqlite3_bind_int64(handle, index, value), index: index)
    }

    func bind(_ index: Int32, _ value: String) throws(FailureStoreError) {
        // Bind the exact UTF-8 bytes with an explicit length (embedded NULs survive),
        // copied by SQLite (SQLITE_TRANSIENT). An empty buffer may have no base address,
        // and a NULL pointer would bind SQL NULL, so empty text gets a real "" pointer.
        var text = value
        let rc = text.withUTF8 { bytes -> Int32 in
            if bytes.isEmpty {
                return sqlite3_bind_text(handle, index, "", 0, sqliteTransient())
            }
            return sqlite3_bind_text64(
                handle, index, UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self),
                sqlite3_uint64(bytes.count), sqliteTransient(), UInt8(SQLITE_UTF8))
        }
        try check(rc, index: index)
    }

    func bind(_ index: Int32, _ value: String?) throws(FailureStoreError) {
        if let value {
            try bind(index, value)
        } else {
            try check(sqlite3_bind_null(handle, index), index: index)
        }
    }

    private func check(_ rc: Int32, index: Int32) throws(FailureStoreError) {
        guard rc == SQLITE_OK else {
            throw .bind(sql: sql, index: index, code: rc, message: errorMessage(db))
        }
    }

    // MARK: Stepping

    /// Advances one step: `true` when a row is available, `false` when done.
    @discardableResult
    func step() throws(FailureStoreError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw .step(sql: sql, code: sqlite3_extended_errcode(db), message: errorMessage(db))
        }
    }

    /// Steps until done, ignoring any rows.
    func run() throws(FailureStoreError) {
        while try step() {}
    }

    /// Makes the statement ready to be bound and stepped again.
    func reset() throws(FailureStoreError) {
        let rc = sqlite3_reset(handle)
        guard rc == SQLITE_OK else {
            throw .step(sql: sql, code: sqlite3_extended_errcode(db), message: errorMessage(db))
        }
        let cleared = sqlite3_clear_bindings(handle)
        guard cleared == SQLITE_OK else {
            throw .bind(sql: sql, index: 0, code: cleared, message: errorMessage(db))
        }
    }

    // MARK: Columns (0-based indices)

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The column as text, `nil` for SQL NULL. `sqlite3_column_text` can return NULL
    /// for a non-NULL value (out of memory): that is reported, never dereferenced.
    func text(_ column: Int32, name: String, rowID: Int64?) throws(FailureStoreError) -> String? {
        if isNull(column) { return nil }
        let pointer = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))  // after column_text, as SQLite documents
        guard let pointer else {
            if count == 0 { return "" }
            throw .corruptRow(id: rowID, column: name, reason: "could not be read (\(errorMessage(db)))")
        }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Like ``text(_:name:rowID:)`` for a column that must not be NULL.
    func requiredText(_ column: Int32, name: String, rowID: Int64?) throws(FailureStoreError) -> String {
        guard let value = try text(column, name: name, rowID: rowID) else {
            throw .corruptRow(id: rowID, column: name, reason: "is NULL")
        }
        return value
    }
}
