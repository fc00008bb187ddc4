/// Everything that can go wrong in ``FailureStore``. Each SQLite case carries the
/// result code (extended where SQLite gives one), SQLite's own message and the SQL
/// (or the path) involved, so the one-line ``description`` says what failed and where.
public enum FailureStoreError: Error, CustomStringConvertible, Equatable, Sendable {
    /// `sqlite3_open_v2` failed (e.g. the directory does not exist).
    case open(path: String, code: Int32, message: String)
    /// Setting a connection pragma or creating / checking the schema failed.
    case schema(sql: String, code: Int32, message: String)
    /// `sqlite3_prepare_v2` failed.
    case prepare(sql: String, code: Int32, message: String)
    /// Binding parameter `index` (1-based) failed.
    case bind(sql: String, index: Int32, code: Int32, message: String)
    /// `sqlite3_step` failed (constraint violations land here).
    case step(sql: String, code: Int32, message: String)
    /// `BEGIN IMMEDIATE`, `COMMIT` or `ROLLBACK` failed.
    case transaction(sql: String, code: Int32, message: String)
    /// A stored row could not be turned back into a ``FailureRecord``.
    case corruptRow(id: Int64?, column: String, reason: String)
    /// The database was written by newer code: its `user_version` is above the one this
    /// code knows. It is left untouched.
    case newerSchema(path: String, found: Int32, supported: Int32)
    /// `delete(id:)` or `setRegressionPath(id:path:)` named a row that does not exist.
    case notFound(id: Int64)
    /// Opening without creating found no file at `path`.
    case missing(path: String)
    /// The file is no failure store: a directory, not an SQLite database, or a database with
    /// other tables. Nothing is written to it.
    case notAFailureStore(path: String, reason: String)
    /// `PRAGMA quick_check` found damaged pages, or SQLite reported corruption. Nothing is
    /// written to it.
    case corrupt(path: String, detail: String)
    /// Another connection held the write lock for the whole busy timeout.
    case busy(path: String, waitedMilliseconds: Int32)

    /// The SQLite result code, when the error came from SQLite.
    public var sqliteCode: Int32? {
        switch self {
        case .open(_, let code, _), .schema(_, let code, _), .prepare(_, let code, _),
            .bind(_, _, let code, _), .step(_, let code, _), .transaction(_, let code, _):
            return code
        case .corruptRow, .newerSchema, .notFound, .missing, .notAFailureStore, .corrupt, .busy:
            return nil
        }
    }

    /// Whether waiting longer could help: the store was only locked by another writer.
    public var isBusy: Bool {
        if case .busy = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .open(let path, let code, let message):
            let hint = (code & 0xFF) == 14 ? " (does the directory exist and is it writable?)" : ""
            return "failure store: cannot open database at '\(path)': \(message) [SQLite \(code)]\(hint)"
        case .schema(let sql, let code, let message):
            return "failure store: schema setup failed at `\(Self.oneLine(sql))`: \(message) [SQLite \(code)]"
        case .prepare(let sql, let code, let message):
            return "failure store: cannot prepare `\(Self.oneLine(sql))`: \(message) [SQLite \(code)]"
        case .bind(let sql, let index, let code, let message):
            return "failure store: cannot bind parameter \(index) of `\(Self.oneLine(sql))`: \(message) [SQLite \(code)]"
        case .step(let sql, let code, let message):
            return "failure store: `\(Self.oneLine(sql))` failed: \(message) [SQLite \(code)]"
        case .transaction(let sql, let code, let message):
            return "failure store: `\(sql)` failed: \(message) [SQLite \(code)]"
        case .corruptRow(let id, let column, let reason):
            let row = id.map { "row \($0)" } ?? "a row"
            return "failure store: \(row) is unreadable: column \(column) \(reason)"
        case .newerSchema(let path, let found, let supported):
            return "failure store: '\(path)' has schema version \(found), newer than the \(supported) this code knows; "
                + "refusing to open it (use a newer build)"
        case .notFound(let id):
            return "failure store: no failure with id \(id)"
        case .missing(let path):
            return "failure store: there is no failure store at '\(path)'"
        case .notAFailureStore(let path, let reason):
            return "failure store: '\(path)' is not a failure store (\(reason)); nothing was written to it"
        case .corrupt(let path, let detail):
            return "failure store: '\(path)' is corrupt (\(detail)); nothing was written to it. "
                + "Move it aside (`sqlite3 FILE .recover` may save its rows) and start a new store"
        case .busy(let path, let waited):
            return "failure store: '\(path)' stayed locked by another writer for \(Double(waited) / 1_000) s"
        }
    }

    /// SQL collapsed to one line and shortened, for messages.
    static func oneLine(_ sql: String) -> String {
        let collapsed = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
        return collapsed.count > 120 ? String(collapsed.prefix(117)) + "..." : collapsed
    }
}
