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

    /// The SQLite result code, when the error came from SQLite.
    public var sqliteCode: Int32? {
        switch self {
        case .open(_, let code, _), .schema(_, let code, _), .prepare(_, let code, _),
            .bind(_, _, let code, _), .step(_, let code, _), .transaction(_, let code, _):
            return code
        case .corruptRow, .newerSchema, .notFound:
            return nil
        }
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
        }
    }

    /// SQL collapsed to one line and shortened, for messages.
    static func oneLine(_ sql: String) -> String {
        let collapsed = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
        return collapsed.count > 120 ? String(collapsed.prefix(117)) + "..." : collapsed
    }
}
