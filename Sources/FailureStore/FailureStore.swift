import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Persists failing fuzzer runs in SQLite so that none is ever lost or half-written.
///
/// - Opening checks the file before changing anything in it: it must be an SQLite database
///   whose pages pass `PRAGMA quick_check` and which is empty or holds exactly this schema
///   (`PRAGMA user_version` and the tables' SQL). Anything else is refused, never appended to.
/// - Every write is one transaction; `save` uses `BEGIN IMMEDIATE` ... `COMMIT` and rolls
///   back on any error. A write lock held by another connection is waited for (SQLite's busy
///   handler, backing off from 1 ms to 100 ms between tries) up to the busy timeout.
/// - Values only ever reach SQL through bound parameters.
/// - The database runs in WAL mode with `synchronous=FULL` (each commit is on disk before
///   `save` returns; writes are rare, one per failure) and foreign keys on.
/// - Nothing here reads the wall clock; the caller labels each record with its run.
///
/// Not `Sendable`: a store owns one SQLite connection and is meant to be used from one
/// task at a time. Open one store per task (WAL lets them share a file).
public final class FailureStore {
    /// The schema version this code writes and understands (`PRAGMA user_version`). Version 2
    /// added `failure_finds` (how often a failure was found, kept by ``merge(_:)``); a version 1
    /// store is upgraded when it is opened for writing, and read as it is when opened read-only.
    public static let schemaVersion: Int32 = 2

    /// The path the store was opened with (`":memory:"` for an in-memory store).
    public let path: String
    /// How long a write waits for another connection's write lock before giving up.
    public let busyTimeoutMilliseconds: Int32
    let db: OpaquePointer
    /// The file's schema version once opened: ``schemaVersion``, or an older one when opened
    /// read-only.
    let version: Int32

    /// Opens the database at `path` (creating it if needed and `createIfMissing`), checks it
    /// and makes sure its schema is in place. Refuses a directory, a file that is not a
    /// failure store, a corrupt one and one written by a newer schema version.
    public convenience init(path: String, busyTimeoutMilliseconds: Int32 = 5_000, createIfMissing: Bool = true) throws(FailureStoreError) {
        try self.init(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, mode: createIfMissing ? .create : .write)
    }

    /// Opens an existing store to read it, with the same checks as a store opened for writing,
    /// and changes nothing in the file (an older schema version is read as it is, not upgraded).
    public convenience init(readingOnly path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws(FailureStoreError) {
        try self.init(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, mode: .read)
    }

    /// How a store is opened.
    enum OpenMode {
        /// Read and write; a missing file is created.
        case create
        /// Read and write an existing file.
        case write
        /// Read an existing file, changing nothing in it.
        case read
    }

    init(path: String, busyTimeoutMilliseconds: Int32, mode: OpenMode) throws(FailureStoreError) {
        try Self.checkPath(path, createIfMissing: mode == .create)
        var handle: OpaquePointer?
        let access = switch mode {
        case .create: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .write: SQLITE_OPEN_READWRITE
        case .read: SQLITE_OPEN_READONLY
        }
        let flags = access | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            // Even a failed open can hand back a connection that must be closed.
            let message = handle.map { errorMessage($0) } ?? errorString(rc)
            let code = handle.map { sqlite3_extended_errcode($0) } ?? rc
            sqlite3_close_v2(handle)
            throw .open(path: path, code: code, message: message)
        }
        do throws(FailureStoreError) {
            self.version = try Self.prepareConnection(
                handle, path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, readOnly: mode == .read)
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        self.db = handle
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    deinit {
        sqlite3_close_v2(db)
    }

    // MARK: Writing

    /// Saves `record` in one transaction and returns its row id. `record.id` is ignored.
    ///
    /// A record with the same `(seed, invariant, traceHashHex)` as a stored one is not
    /// stored again: the stored record's id is returned and the stored record is left
    /// as it is.
    @discardableResult
    public func save(_ record: FailureRecord) throws(FailureStoreError) -> Int64 {
        try inImmediateTransaction { () throws(FailureStoreError) -> Int64 in
            let lookup = try Statement(SQL.findDuplicate, on: db)
            try lookup.bind(1, Int64(bitPattern: record.seed))
            try lookup.bind(2, record.invariant)
            try lookup.bind(3, record.traceHashHex)
            if try lookup.step() {
                return lookup.int64(0)
            }
            return try insert(record)
        }
    }

    /// Inserts `record` and its rule ids (inside the caller's transaction); returns its row id.
    func insert(_ record: FailureRecord) throws(FailureStoreError) -> Int64 {
        let insert = try Statement(SQL.insertFailure, on: db)
        try insert.bind(1, Int64(bitPattern: record.seed))
        try insert.bind(2, record.invariant)
        try insert.bind(3, record.message)
        try insert.bind(4, record.traceHashHex)
        try insert.bind(5, record.scenarioYAML)
        try insert.bind(6, Int64(record.originalStepCount))
        try insert.bind(7, Int64(record.shrunkStepCount))
        try insert.bind(8, record.createdAtRun)
        try insert.bind(9, record.regressionPath)
        try insert.run()
        let id = sqlite3_last_insert_rowid(db)

        let insertRule = try Statement(SQL.insertRule, on: db)
        for (position, rule) in record.rules.enumerated() {
            try insertRule.reset()
            try insertRule.bind(1, id)
            try insertRule.bind(2, Int64(position))
            try insertRule.bind(3, rule)
            try insertRule.run()
        }
        return id
    }

    /// Deletes the failure `id` (and its rule ids). Throws `.notFound` if there is none.
    public func delete(id: Int64) throws(FailureStoreError) {
        try inImmediateTransaction { () throws(FailureStoreError) in
            let statement = try Statement(SQL.deleteFailure, on: db)
            try statement.bind(1, id)
            try statement.run()
            guard sqlite3_changes(db) == 1 else { throw .notFound(id: id) }
        }
    }

    /// Records where the readable regression scenario of failure `id` was written
    /// (`nil` clears it). Throws `.notFound` if there is no such failure.
    public func setRegressionPath(id: Int64, path: String?) throws(FailureStoreError) {
        try inImmediateTransaction { () throws(FailureStoreError) in
            let statement = try Statement(SQL.setRegressionPath, on: db)
            try statement.bind(1, path)
            try statement.bind(2, id)
            try statement.run()
            guard sqlite3_changes(db) == 1 else { throw .notFound(id: id) }
        }
    }

    // MARK: Reading

    /// Every stored failure, ordered by id.
    public func all() throws(FailureStoreError) -> [FailureRecord] {
        try fetch(SQL.selectAll(withFinds: version >= 2)) { (_: borrowing Statement) throws(FailureStoreError) in }
    }

    /// The failure with row id `id`, or `nil`.
    public func record(id: Int64) throws(FailureStoreError) -> FailureRecord? {
        try fetch(SQL.selectByID(withFinds: version >= 2)) { (statement: borrowing Statement) throws(FailureStoreError) in
            try statement.bind(1, id)
        }.first
    }

    /// Every failure found with `seed`, ordered by id.
    public func records(seed: UInt64) throws(FailureStoreError) -> [FailureRecord] {
        try fetch(SQL.selectBySeed(withFinds: version >= 2)) { (statement: borrowing Statement) throws(FailureStoreError) in
            try statement.bind(1, Int64(bitPattern: seed))
        }
    }

    /// Runs one of the record queries (a single statement, hence one consistent
    /// snapshot) and folds its rows, one per rule id, into records. An empty file opened
    /// read-only (version 0, no tables yet) holds no records.
    private func fetch(
        _ sql: String, bind: (borrowing Statement) throws(FailureStoreError) -> Void
    ) throws(FailureStoreError) -> [FailureRecord] {
        guard version > 0 else { return [] }
        let statement = try Statement(sql, on: db)
        try bind(statement)
        var records: [FailureRecord] = []
        while try statement.step() {
            let id = statement.int64(0)
            let rule = try statement.text(10, name: "failure_rules.rule", rowID: id)
            if let last = records.last, last.id == id {
                if let rule { records[records.count - 1].rules.append(rule) }
                continue
            }
            guard let original = Int(exactly: statement.int64(6)), let shrunk = Int(exactly: statement.int64(7)),
                let timesFound = Int(exactly: statement.int64(11))
            else {
                throw .corruptRow(id: id, column: "original_step_count/shrunk_step_count/times_found", reason: "does not fit Int")
            }
            records.append(
                FailureRecord(
                    id: id,
                    seed: UInt64(bitPattern: statement.int64(1)),
                    invariant: try statement.requiredText(2, name: "invariant", rowID: id),
                    rules: rule.map { [$0] } ?? [],
                    message: try statement.requiredText(3, name: "message", rowID: id),
                    traceHashHex: try statement.requiredText(4, name: "trace_hash_hex", rowID: id),
                    scenarioYAML: try statement.requiredText(5, name: "scenario_yaml", rowID: id),
                    originalStepCount: original,
                    shrunkStepCount: shrunk,
                    createdAtRun: try statement.requiredText(8, name: "created_at_run", rowID: id),
                    regressionPath: try statement.text(9, name: "regression_path", rowID: id),
                    timesFound: timesFound
                ))
        }
        return records
    }

    // MARK: Transactions

    /// Runs `body` inside `BEGIN IMMEDIATE` ... `COMMIT`; on any error, rolls back and
    /// rethrows, so a write is either complete or absent.
    func inImmediateTransaction<T>(
        _ body: () throws(FailureStoreError) -> T
    ) throws(FailureStoreError) -> T {
        do throws(FailureStoreError) {
            try Self.transactionStatement("BEGIN IMMEDIATE", on: db)
            do throws(FailureStoreError) {
                let result = try body()
                try Self.transactionStatement("COMMIT", on: db)
                return result
            } catch {
                try Self.rollback(db, after: error)
                throw error
            }
        } catch {
            throw Self.classify(error, path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
    }

    /// What an SQLite failure means for the caller: a store locked by another writer, a
    /// corrupt one, or a file that is not a database; any other error is returned as it is.
    private static func classify(
        _ error: FailureStoreError, path: String, busyTimeoutMilliseconds: Int32
    ) -> FailureStoreError {
        guard let code = error.sqliteCode else { return error }
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(path: path, waitedMilliseconds: busyTimeoutMilliseconds)
        case SQLITE_CORRUPT: return .corrupt(path: path, detail: "\(errorString(code & 0xFF)) [SQLite \(code)]")
        case SQLITE_NOTADB: return .notAFailureStore(path: path, reason: "it is not an SQLite database")
        default: return error
        }
    }

    private static func transactionStatement(_ sql: String, on db: OpaquePointer) throws(FailureStoreError) {
        do throws(FailureStoreError) {
            try Statement(sql, on: db).run()
        } catch {
            throw .transaction(sql: sql, code: error.sqliteCode ?? SQLITE_ERROR, message: errorMessage(db))
        }
    }

    /// Rolls back the open transaction, if SQLite has not already done so. If even that
    /// fails, the error says so and carries the original one.
    private static func rollback(_ db: OpaquePointer, after original: FailureStoreError) throws(FailureStoreError) {
        guard sqlite3_get_autocommit(db) == 0 else { return }  // no transaction left open
        let rc = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
        guard rc == SQLITE_OK else {
            throw .transaction(
                sql: "ROLLBACK", code: rc,
                message: "\(errorMessage(db)) (while undoing after: \(original.description))")
        }
    }

    // MARK: Opening

    /// Refuses a path that is a directory (or another non-file), and a missing file when
    /// the store must already exist.
    private static func checkPath(_ path: String, createIfMissing: Bool) throws(FailureStoreError) {
        guard path != ":memory:" else { return }
        var status = stat()
        guard stat(path, &status) == 0 else {
            if !createIfMissing && (errno == ENOENT || errno == ENOTDIR) { throw .missing(path: path) }
            return  // sqlite3_open_v2 reports the reason
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .notAFailureStore(path: path, reason: "it is a directory")
        default: throw .notAFailureStore(path: path, reason: "it is not a regular file")
        }
    }

    /// Checks the file and, unless `readOnly`, configures the connection and creates or
    /// upgrades the schema; returns the schema version the file then has.
    private static func prepareConnection(
        _ db: OpaquePointer, path: String, busyTimeoutMilliseconds: Int32, readOnly: Bool
    ) throws(FailureStoreError) -> Int32 {
        do throws(FailureStoreError) {
            guard sqlite3_extended_result_codes(db, 1) == SQLITE_OK,
                sqlite3_busy_timeout(db, busyTimeoutMilliseconds) == SQLITE_OK
            else {
                throw .schema(sql: "(connection setup)", code: sqlite3_errcode(db), message: errorMessage(db))
            }
            // Check the file before changing anything in it (even its journal mode), in one
            // read transaction: another process may be creating the schema meanwhile, and the
            // version and the tables must be read from the same snapshot.
            let version = try validateInOneSnapshot(db, path: path)
            if readOnly { return version }
            try configure(db)
            if version < schemaVersion { try createSchema(db, path: path) }
            return schemaVersion
        } catch {
            throw openingError(classify(error, path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
        }
    }

    /// WAL, `synchronous=FULL` and foreign keys. Each pragma's statement lives only inside its
    /// helper call, so none is still in progress when a later transaction commits.
    private static func configure(_ db: OpaquePointer) throws(FailureStoreError) {
        let reported = try firstText("PRAGMA journal_mode=WAL", on: db) ?? ""
        // In-memory databases have no journal file and report "memory".
        guard reported.lowercased() == "wal" || reported.lowercased() == "memory" else {
            throw .schema(
                sql: "PRAGMA journal_mode=WAL", code: SQLITE_ERROR,
                message: "journal mode is '\(reported)', not 'wal'")
        }
        try Statement("PRAGMA synchronous=FULL", on: db).run()
        try Statement("PRAGMA foreign_keys=ON", on: db).run()
        guard try firstInteger("PRAGMA foreign_keys", on: db) == 1 else {
            throw .schema(sql: "PRAGMA foreign_keys=ON", code: SQLITE_ERROR, message: "foreign keys could not be enabled")
        }
    }

    /// `validate` inside a read transaction.
    private static func validateInOneSnapshot(_ db: OpaquePointer, path: String) throws(FailureStoreError) -> Int32 {
        try transactionStatement("BEGIN", on: db)
        do throws(FailureStoreError) {
            let version = try validate(db, path: path)
            try transactionStatement("COMMIT", on: db)
            return version
        } catch {
            try rollback(db, after: error)
            throw error
        }
    }

    /// Creates or upgrades the schema in one transaction, unless another process did it first.
    private static func createSchema(_ db: OpaquePointer, path: String) throws(FailureStoreError) {
        try transactionStatement("BEGIN IMMEDIATE", on: db)
        do throws(FailureStoreError) {
            // Checked again under the write lock: another process may have created it.
            for statement in SQL.upgrade(from: try validate(db, path: path)) {
                try Statement(statement, on: db).run()
            }
            try transactionStatement("COMMIT", on: db)
        } catch {
            try rollback(db, after: error)
            throw error
        }
    }

    /// Errors of the statements run while opening are reported as schema errors.
    private static func openingError(_ error: FailureStoreError) -> FailureStoreError {
        switch error {
        case .prepare(let sql, let code, let message), .step(let sql, let code, let message):
            return .schema(sql: sql, code: code, message: message)
        case .bind(let sql, _, let code, let message):
            return .schema(sql: sql, code: code, message: message)
        case .corruptRow(_, let column, let reason):
            return .schema(sql: "PRAGMA \(column)", code: SQLITE_ERROR, message: "value \(reason)")
        default:
            return error
        }
    }

    /// Returns the schema version after refusing a file this code must not append to: a newer
    /// version, damaged pages, tables of another program, or tables that differ from ours.
    /// Reading the first page is what refuses a file that is not a database at all.
    private static func validate(_ db: OpaquePointer, path: String) throws(FailureStoreError) -> Int32 {
        let version = try refuseNewerSchema(db, path: path)
        try quickCheck(db, path: path)
        let objects = try schemaObjects(db)
        if version == 0 && !objects.isEmpty {
            let names = objects.keys.sorted().joined(separator: ", ")
            throw .notAFailureStore(path: path, reason: "it holds other tables (\(names)) and no failure store schema")
        }
        if version > 0 && objects != SQL.schemaObjects(version: version) {
            throw .notAFailureStore(path: path, reason: "its user_version is \(version) but its tables are not the failure store's")
        }
        return version
    }

    /// Throws `.corrupt` with SQLite's first findings unless `PRAGMA quick_check` says "ok".
    private static func quickCheck(_ db: OpaquePointer, path: String) throws(FailureStoreError) {
        let statement = try Statement("PRAGMA quick_check", on: db)
        var findings: [String] = []
        while try statement.step() {
            let line = try statement.text(0, name: "quick_check", rowID: nil) ?? ""
            if line != "ok" { findings.append(line) }
        }
        guard findings.isEmpty else {
            throw .corrupt(path: path, detail: "quick_check: " + findings.prefix(3).joined(separator: "; "))
        }
    }

    /// Each table, index, view and trigger by name, with the SQL that created it.
    private static func schemaObjects(_ db: OpaquePointer) throws(FailureStoreError) -> [String: String] {
        let statement = try Statement(SQL.selectSchemaObjects, on: db)
        var objects: [String: String] = [:]
        while try statement.step() {
            let name = try statement.requiredText(0, name: "sqlite_schema.name", rowID: nil)
            objects[name] = try statement.text(1, name: "sqlite_schema.sql", rowID: nil) ?? ""
        }
        return objects
    }

    /// Reads `PRAGMA user_version` and throws `.newerSchema` if it is above ours.
    private static func refuseNewerSchema(_ db: OpaquePointer, path: String) throws(FailureStoreError) -> Int32 {
        guard let raw = try firstInteger("PRAGMA user_version", on: db) else {
            throw .schema(sql: "PRAGMA user_version", code: SQLITE_ERROR, message: "returned no row")
        }
        let version = Int32(clamping: raw)
        guard version <= schemaVersion else {
            throw .newerSchema(path: path, found: version, supported: schemaVersion)
        }
        return version
    }

    /// The first column of the first row of a parameterless statement as an integer
    /// (nil when there is no row). The statement is finalized before this returns.
    private static func firstInteger(_ sql: String, on db: OpaquePointer) throws(FailureStoreError) -> Int64? {
        let statement = try Statement(sql, on: db)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Like ``firstInteger(_:on:)``, as text (nil also for SQL NULL).
    private static func firstText(_ sql: String, on db: OpaquePointer) throws(FailureStoreError) -> String? {
        let statement = try Statement(sql, on: db)
        return try statement.step() ? try statement.text(0, name: "result", rowID: nil) : nil
    }

    // MARK: Test support (internal; reached with @testable import)

    /// Runs one parameterless statement, ignoring rows.
    func execute(_ sql: String) throws(FailureStoreError) {
        try Statement(sql, on: db).run()
    }

    /// The first column of the first row of a parameterless query, as an integer.
    func integer(_ sql: String) throws(FailureStoreError) -> Int64? {
        try Self.firstInteger(sql, on: db)
    }

    /// The first column of the first row of a parameterless query, as text.
    func text(_ sql: String) throws(FailureStoreError) -> String? {
        try Self.firstText(sql, on: db)
    }
}
