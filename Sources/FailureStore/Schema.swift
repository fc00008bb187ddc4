/// All SQL of the failure store, as constants. Values are never spliced into SQL;
/// they are bound as parameters (`?1`, `?2`, ...).
enum SQL {
    /// Version 1 of the failures table. `STRICT` keeps every column's type exact (the seed
    /// is an INTEGER holding the UInt64's bit pattern); the CHECKs keep half-formed records out.
    static let failuresTable = """
        CREATE TABLE failures (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            seed INTEGER NOT NULL,
            invariant TEXT NOT NULL CHECK (length(invariant) > 0),
            message TEXT NOT NULL,
            trace_hash_hex TEXT NOT NULL
                CHECK (length(trace_hash_hex) = 16 AND trace_hash_hex NOT GLOB '*[^0-9a-f]*'),
            scenario_yaml TEXT NOT NULL,
            original_step_count INTEGER NOT NULL CHECK (original_step_count >= 0),
            shrunk_step_count INTEGER NOT NULL CHECK (shrunk_step_count >= 0),
            created_at_run TEXT NOT NULL,
            regression_path TEXT,
            UNIQUE (seed, invariant, trace_hash_hex)
        ) STRICT
        """

    /// Rule ids live in their own table, in order, and go with their failure.
    static let rulesTable = """
        CREATE TABLE failure_rules (
            failure_id INTEGER NOT NULL REFERENCES failures(id) ON DELETE CASCADE,
            position INTEGER NOT NULL CHECK (position >= 0),
            rule TEXT NOT NULL CHECK (length(rule) > 0),
            PRIMARY KEY (failure_id, position)
        ) STRICT, WITHOUT ROWID
        """

    static let seedIndex = "CREATE INDEX failures_by_seed ON failures (seed)"

    /// Version 2: how many times a failure was found, for a failure found more than once
    /// (a failure without a row was found once). `merge` keeps it.
    static let findsTable = """
        CREATE TABLE failure_finds (
            failure_id INTEGER PRIMARY KEY REFERENCES failures(id) ON DELETE CASCADE,
            times_found INTEGER NOT NULL CHECK (times_found >= 2)
        ) STRICT
        """

    /// The tables and index of `version` (1 or 2), by name, as `sqlite_schema.sql` keeps them.
    static func schemaObjects(version: Int32) -> [String: String] {
        var objects = ["failures": failuresTable, "failure_rules": rulesTable, "failures_by_seed": seedIndex]
        if version >= 2 { objects["failure_finds"] = findsTable }
        return objects
    }

    /// The statements that bring a store of `version` (0 for a new one) to the current version.
    static func upgrade(from version: Int32) -> [String] {
        let steps: [(version: Int32, statements: [String])] = [
            (1, [failuresTable, rulesTable, seedIndex]),
            (2, [findsTable]),
        ]
        let needed = steps.filter { $0.version > version }
        guard let last = needed.last else { return [] }
        return needed.flatMap(\.statements) + ["PRAGMA user_version = \(last.version)"]
    }

    /// Every table, index, view and trigger the file holds (SQLite's own internal ones aside),
    /// with the SQL that created it.
    static let selectSchemaObjects =
        "SELECT name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"

    static let findDuplicate =
        "SELECT id FROM failures WHERE seed = ?1 AND invariant = ?2 AND trace_hash_hex = ?3"

    static let insertFailure = """
        INSERT INTO failures (seed, invariant, message, trace_hash_hex, scenario_yaml,
            original_step_count, shrunk_step_count, created_at_run, regression_path)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
        """

    static let insertRule = "INSERT INTO failure_rules (failure_id, position, rule) VALUES (?1, ?2, ?3)"

    static let deleteFailure = "DELETE FROM failures WHERE id = ?1"

    static let setRegressionPath = "UPDATE failures SET regression_path = ?1 WHERE id = ?2"

    /// One row per (failure, rule id), or one row with a NULL rule for a failure
    /// without rule ids; column 10 is the rule id, column 11 how many times it was found
    /// (always 1 in a version 1 store, which has no `failure_finds`).
    private static func selectRecords(withFinds: Bool) -> String {
        let finds = withFinds
            ? ("COALESCE(n.times_found, 1)", " LEFT JOIN failure_finds AS n ON n.failure_id = f.id") : ("1", "")
        return """
            SELECT f.id, f.seed, f.invariant, f.message, f.trace_hash_hex, f.scenario_yaml,
                f.original_step_count, f.shrunk_step_count, f.created_at_run, f.regression_path, r.rule, \(finds.0)
            FROM failures AS f LEFT JOIN failure_rules AS r ON r.failure_id = f.id\(finds.1)
            """
    }

    private static let orderRecords = " ORDER BY f.id, r.position"

    static func selectAll(withFinds: Bool) -> String { selectRecords(withFinds: withFinds) + orderRecords }
    static func selectByID(withFinds: Bool) -> String { selectRecords(withFinds: withFinds) + " WHERE f.id = ?1" + orderRecords }
    static func selectBySeed(withFinds: Bool) -> String {
        selectRecords(withFinds: withFinds) + " WHERE f.seed = ?1" + orderRecords
    }

    /// A stored failure that a merged one duplicates: the same invariant and shrunk scenario
    /// text, or the same `(seed, invariant, trace hash)` key.
    static let findMergeDuplicate = """
        SELECT id FROM failures
        WHERE invariant = ?1 AND (scenario_yaml = ?2 OR (seed = ?3 AND trace_hash_hex = ?4))
        ORDER BY id LIMIT 1
        """

    /// Adds `?2` finds to failure `?1`, which was found once unless it has a row.
    static let addFinds = """
        INSERT INTO failure_finds (failure_id, times_found) VALUES (?1, 1 + ?2)
        ON CONFLICT (failure_id) DO UPDATE SET times_found = times_found + ?2
        """
}
