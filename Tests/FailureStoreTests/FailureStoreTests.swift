import Foundation
import Testing

@testable import FailureStore

/// A record with every field set; `tweak` varies it.
private func sample(
    seed: UInt64 = 42, invariant: String = "noGhostSubscriber", trace: String = "00ff00ff00ff00ff",
    _ tweak: (inout FailureRecord) -> Void = { _ in }
) -> FailureRecord {
    var record = FailureRecord(
        seed: seed,
        invariant: invariant,
        rules: ["SUB-6", "SIG-2"],
        message: "subscriber saw publisher p1 after it left",
        traceHashHex: trace,
        scenarioYAML: "name: shrunk\nsteps:\n  - join: p1\n  - leave: p1\n",
        originalStepCount: 40,
        shrunkStepCount: 2,
        createdAtRun: "fuzz seeds 1...500",
        regressionPath: nil
    )
    tweak(&record)
    return record
}

/// A fresh path in a fresh temporary directory, removed (with -wal/-shm) afterwards.
private func withTemporaryDatabase(_ body: (String) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("FailureStoreTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(directory.appendingPathComponent("failures.sqlite").path)
}

private func rowCounts(_ store: FailureStore) throws -> (failures: Int64?, rules: Int64?) {
    (try store.integer("SELECT count(*) FROM failures"), try store.integer("SELECT count(*) FROM failure_rules"))
}

@Suite("Failure store")
struct FailureStoreTests {
    @Test("every field round-trips exactly, including extreme seeds, unicode, quotes and newlines")
    func roundTrip() throws {
        let store = try FailureStore(path: ":memory:")
        let records = [
            sample(seed: UInt64.max) {
                $0.invariant = "visibility “quoted” 'single' \"double\" 🎥"
                $0.rules = ["SUB-6", "R'1", "Ünïcödé-规则", "a;b -- c"]
                $0.message = "line 1\nline 2\twith tab; DROP TABLE failures; --"
                $0.scenarioYAML = "name: \"it's\"\nsteps:\n  - say: 'héllo 👋'\n\n  - note: |\n      multi\r\n      line\n"
                $0.originalStepCount = 123_456
                $0.shrunkStepCount = 0
                $0.createdAtRun = "fuzz seeds 1...500 (CI #7)"
                $0.regressionPath = "Scenarios/regressions/ünï code 'x'.yaml"
            },
            sample(seed: 0, trace: "0123456789abcdef") {
                $0.rules = []
                $0.message = ""
                $0.scenarioYAML = ""
                $0.createdAtRun = ""
            },
            sample(seed: UInt64(Int64.max) + 1, trace: "ffffffffffffffff") { $0.message = "nul \u{0} inside" },
            sample(seed: UInt64(Int64.max), trace: "8000000000000000"),
        ]
        var expected: [FailureRecord] = []
        for record in records {
            let id = try store.save(record)
            var stored = record
            stored.id = id
            expected.append(stored)
            #expect(try store.record(id: id) == stored)
        }
        #expect(try store.all() == expected)
        #expect(try store.records(seed: UInt64.max) == [expected[0]])
        #expect(try store.records(seed: 0) == [expected[1]])
        #expect(try store.records(seed: UInt64(Int64.max) + 1) == [expected[2]])
        // The seed really is stored as the bit pattern, as an INTEGER.
        #expect(try store.integer("SELECT seed FROM failures WHERE id = \(expected[0].id ?? -1)") == -1)
        #expect(try store.text("SELECT typeof(seed) FROM failures LIMIT 1") == "integer")
        #expect(try store.record(id: 9_999) == nil)
        #expect(try store.records(seed: 7) == [])
    }

    @Test("saving the same (seed, invariant, trace hash) twice returns the first id and keeps one row")
    func duplicateSave() throws {
        let store = try FailureStore(path: ":memory:")
        let first = try store.save(sample())
        let again = try store.save(sample { $0.message = "a different message"; $0.createdAtRun = "later run" })
        #expect(again == first)
        #expect(try rowCounts(store) == (1, 2))
        #expect(try store.all().map(\.message) == [sample().message])
        // Any one of the three key fields differing makes a new record.
        let otherSeed = try store.save(sample(seed: 43))
        let otherInvariant = try store.save(sample(invariant: "noStaleLayer"))
        let otherTrace = try store.save(sample(trace: "00ff00ff00ff00fe"))
        #expect(Set([first, otherSeed, otherInvariant, otherTrace]).count == 4)
        #expect(try rowCounts(store).failures == 4)
    }

    @Test("all() and records(seed:) are ordered by id")
    func ordering() throws {
        let store = try FailureStore(path: ":memory:")
        let seeds: [UInt64] = [9, 3, UInt64.max, 3, 1]
        var ids: [Int64] = []
        for (index, seed) in seeds.enumerated() {
            ids.append(try store.save(sample(seed: seed, invariant: "monitor\(index)")))
        }
        #expect(ids == ids.sorted() && Set(ids).count == ids.count)
        let all = try store.all()
        #expect(all.compactMap(\.id) == ids)
        #expect(all.map(\.seed) == seeds)
        #expect(try store.records(seed: 3).map(\.invariant) == ["monitor1", "monitor3"])
        #expect(try store.records(seed: 3).compactMap(\.id) == [ids[1], ids[3]])
    }

    @Test("delete removes the record and its rule ids; ids are not reused; a missing id is reported")
    func delete() throws {
        let store = try FailureStore(path: ":memory:")
        let a = try store.save(sample(seed: 1))
        let b = try store.save(sample(seed: 2))
        try store.delete(id: a)
        #expect(try store.record(id: a) == nil)
        #expect(try store.all().compactMap(\.id) == [b])
        #expect(try rowCounts(store) == (1, 2))
        #expect(throws: FailureStoreError.notFound(id: a)) { try store.delete(id: a) }
        let c = try store.save(sample(seed: 1))
        #expect(c > b)
    }

    @Test("setRegressionPath sets and clears the path of one record only")
    func regressionPath() throws {
        let store = try FailureStore(path: ":memory:")
        let a = try store.save(sample(seed: 1))
        let b = try store.save(sample(seed: 2))
        try store.setRegressionPath(id: a, path: "Scenarios/regressions/seed-1.yaml")
        #expect(try store.record(id: a)?.regressionPath == "Scenarios/regressions/seed-1.yaml")
        #expect(try store.record(id: b)?.regressionPath == nil)
        try store.setRegressionPath(id: a, path: nil)
        #expect(try store.record(id: a)?.regressionPath == nil)
        #expect(throws: FailureStoreError.notFound(id: 999)) {
            try store.setRegressionPath(id: 999, path: "x.yaml")
        }
    }

    @Test("a file-backed store keeps its records after being closed and reopened")
    func reopen() throws {
        try withTemporaryDatabase { path in
            var saved: [FailureRecord] = []
            do {
                let store = try FailureStore(path: path)
                for seed: UInt64 in [5, UInt64.max] {
                    var record = sample(seed: seed) { $0.scenarioYAML = "seed: \(seed)\nquote: \"'\"\n" }
                    record.id = try store.save(record)
                    saved.append(record)
                }
                try store.setRegressionPath(id: saved[0].id ?? -1, path: "Scenarios/regressions/a.yaml")
                saved[0].regressionPath = "Scenarios/regressions/a.yaml"
            }  // the store is dropped here: sqlite3_close_v2
            let reopened = try FailureStore(path: path)
            #expect(try reopened.all() == saved)
            #expect(try reopened.integer("PRAGMA user_version") == Int64(FailureStore.schemaVersion))
            // Saving into the reopened store still deduplicates against the old rows.
            #expect(try reopened.save(saved[1]) == saved[1].id)
        }
    }

    @Test("a file database runs in WAL mode with synchronous=FULL and foreign keys on")
    func walMode() throws {
        try withTemporaryDatabase { path in
            let store = try FailureStore(path: path)
            #expect(try store.text("PRAGMA journal_mode") == "wal")
            #expect(try store.integer("PRAGMA synchronous") == 2)  // FULL
            #expect(try store.integer("PRAGMA foreign_keys") == 1)
            _ = try store.save(sample())
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }

    @Test("a save that fails a CHECK constraint leaves the tables unchanged")
    func checkConstraintRollsBack() throws {
        let store = try FailureStore(path: ":memory:")
        let kept = try store.save(sample(seed: 1))
        let before = try store.all()
        for badHash in ["00ff00ff00ff00f", "00FF00FF00FF00FF", "00ff00ff00ff00fg", ""] {
            do throws(FailureStoreError) {
                _ = try store.save(sample(seed: 2, trace: badHash))
                Issue.record("a trace hash of '\(badHash)' was accepted")
            } catch {
                #expect(error.sqliteCode == 275)  // SQLITE_CONSTRAINT_CHECK
                #expect(error.description.contains("CHECK constraint failed"))
            }
        }
        #expect(try store.all() == before)
        #expect(try rowCounts(store) == (1, 2))
        #expect(try store.all().compactMap(\.id) == [kept])
    }

    @Test("a failure after the failure row is written, mid-transaction, rolls the whole save back")
    func midTransactionFailureRollsBack() throws {
        let store = try FailureStore(path: ":memory:")
        _ = try store.save(sample(seed: 1))
        let before = try store.all()
        // The failure row and the first rule id are inserted before the empty rule id
        // violates its CHECK: all of it must disappear.
        #expect(throws: FailureStoreError.self) {
            try store.save(sample(seed: 2) { $0.rules = ["SUB-6", "SIG-2", ""] })
        }
        #expect(try store.all() == before)
        #expect(try rowCounts(store) == (1, 2))
        #expect(try store.records(seed: 2) == [])
        // The connection is not left inside a transaction: the next save works.
        let next = try store.save(sample(seed: 2))
        #expect(try store.record(id: next)?.rules == ["SUB-6", "SIG-2"])
        #expect(try rowCounts(store) == (2, 4))
    }

    @Test("a database with a newer user_version is refused and left untouched")
    func newerSchemaIsRefused() throws {
        try withTemporaryDatabase { path in
            do {
                let store = try FailureStore(path: path)
                _ = try store.save(sample())
                try store.execute("PRAGMA user_version = 99")
                // Back to a rollback journal, so that even switching it to WAL would show.
                try store.execute("PRAGMA journal_mode=DELETE")
            }
            let bytesBefore = try Data(contentsOf: URL(fileURLWithPath: path))
            do throws(FailureStoreError) {
                _ = try FailureStore(path: path)
                Issue.record("a database with user_version 99 was opened")
            } catch {
                #expect(error == .newerSchema(path: path, found: 99, supported: FailureStore.schemaVersion))
                #expect(error.description.contains("schema version 99"))
                #expect(!error.description.contains("\n"))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytesBefore)
        }
    }

    @Test("opening a path in a directory that does not exist gives a clear open error")
    func missingDirectory() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("no-such-dir-\(UUID().uuidString)/failures.sqlite").path
        do throws(FailureStoreError) {
            _ = try FailureStore(path: path)
            Issue.record("opening \(path) succeeded")
        } catch {
            guard case .open(let reportedPath, let code, _) = error else {
                Issue.record("expected an open error, got \(error)")
                return
            }
            #expect(reportedPath == path)
            #expect(code & 0xFF == 14)  // SQLITE_CANTOPEN
            #expect(error.description.contains(path))
            #expect(error.description.contains("directory"))
            #expect(!error.description.contains("\n"))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("error descriptions are one line and name the failing SQL")
    func descriptions() {
        let step = FailureStoreError.step(
            sql: "INSERT INTO failures (seed)\n    VALUES (?1)", code: 275, message: "CHECK constraint failed: x")
        #expect(step.description == "failure store: `INSERT INTO failures (seed) VALUES (?1)` failed: CHECK constraint failed: x [SQLite 275]")
        #expect(FailureStoreError.notFound(id: 3).description == "failure store: no failure with id 3")
    }
}
