import Foundation
import Testing

@testable import FailureStore

/// A temporary directory, removed afterwards.
private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("StoreCheckTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(directory.path)
}

/// A closed store at `path` holding `count` failures of a few kilobytes each.
private func makeStore(at path: String, failures count: Int) throws {
    let store = try FailureStore(path: path)
    for seed in 1...UInt64(count) {
        _ = try store.save(FailureRecord(
            seed: seed, invariant: "views-converge-when-quiet", rules: ["RND-1"], message: "seed \(seed)",
            traceHashHex: "00ff00ff00ff00ff", scenarioYAML: String(repeating: "steps: []\n", count: 300),
            originalStepCount: 40, shrunkStepCount: 2, createdAtRun: "test"))
    }
}

/// Opening `path` must fail with an error `matches` accepts, and leave the file byte for byte as it was.
private func expectRefused(_ path: String, _ matches: (FailureStoreError) -> Bool) throws {
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    do throws(FailureStoreError) {
        _ = try FailureStore(path: path, busyTimeoutMilliseconds: 100)
        Issue.record("\(path) was opened as a failure store")
    } catch {
        #expect(matches(error), "\(error)")
        #expect(!error.description.contains("\n"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the refused file was changed")
}

private func isNotAStore(_ error: FailureStoreError) -> Bool {
    if case .notAFailureStore = error { return true }
    return false
}

private func isCorrupt(_ error: FailureStoreError) -> Bool {
    if case .corrupt = error { return true }
    return false
}

/// Opening checks a store before writing anything to it, and a write waits for another
/// connection's lock only as long as the busy timeout.
@Suite("Failure store: checks on opening, busy locks")
struct StoreCheckTests {
    @Test("a text file is not a failure store, and is left as it was")
    func textFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/notes.sqlite"
            try Data(String(repeating: "not a database\n", count: 400).utf8).write(to: URL(fileURLWithPath: path))
            try expectRefused(path) { error in
                guard case .notAFailureStore(_, let reason) = error else { return false }
                return reason.contains("not an SQLite database")
            }
        }
    }

    @Test("a directory is not a failure store")
    func directory() throws {
        try withTemporaryDirectory { directory in
            #expect(throws: FailureStoreError.notAFailureStore(path: directory, reason: "it is a directory")) {
                try FailureStore(path: directory)
            }
        }
    }

    @Test("a database of another program (other tables, user_version 0) is refused and left as it was")
    func otherSchema() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/other.sqlite"
            do {
                let store = try FailureStore(path: path)
                for sql in ["DROP TABLE failure_rules", "DROP TABLE failure_finds", "DROP TABLE failures", "CREATE TABLE notes (body TEXT)", "PRAGMA user_version = 0"] {
                    try store.execute(sql)
                }
            }
            try expectRefused(path) { error in
                guard case .notAFailureStore(_, let reason) = error else { return false }
                return reason.contains("other tables (notes)")
            }
        }
    }

    @Test("a database claiming our schema version with different tables is refused")
    func sameVersionOtherTables() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/changed.sqlite"
            do { try FailureStore(path: path).execute("DROP INDEX failures_by_seed") }
            try expectRefused(path, isNotAStore)
        }
    }

    @Test("a truncated store is refused, not appended to")
    func truncated() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/truncated.sqlite"
            try makeStore(at: path, failures: 40)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
            try expectRefused(path, isCorrupt)
            try bytes.prefix(50).write(to: URL(fileURLWithPath: path))
            try expectRefused(path, isCorrupt)
        }
    }

    @Test("a store with a damaged page fails quick_check and is not appended to")
    func corruptPage() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/corrupt.sqlite"
            try makeStore(at: path, failures: 40)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let pageSize = 4_096
            bytes.replaceSubrange(pageSize..<(2 * pageSize), with: Data(repeating: 0xA5, count: pageSize))
            try bytes.write(to: URL(fileURLWithPath: path))
            try expectRefused(path, isCorrupt)
        }
    }

    @Test("opening without creating reports a missing store and creates nothing")
    func missing() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/missing.sqlite"
            #expect(throws: FailureStoreError.missing(path: path)) { try FailureStore(path: path, createIfMissing: false) }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("a save waits for another connection's write lock up to the busy timeout, then reports busy; later it succeeds")
    func busyLock() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/busy.sqlite"
            let holder = try FailureStore(path: path)
            try holder.execute("BEGIN IMMEDIATE")
            let waiter = try FailureStore(path: path, busyTimeoutMilliseconds: 300)
            let record = FailureRecord(
                seed: 7, invariant: "x", rules: [], message: "", traceHashHex: "0123456789abcdef", scenarioYAML: "",
                originalStepCount: 0, shrunkStepCount: 0, createdAtRun: "test")
            let start = ContinuousClock.now
            #expect(throws: FailureStoreError.busy(path: path, waitedMilliseconds: 300)) { try waiter.save(record) }
            #expect(ContinuousClock.now - start >= .milliseconds(250))
            try holder.execute("COMMIT")
            let id = try waiter.save(record)
            #expect(try holder.record(id: id)?.seed == 7)
        }
    }

    @Test("two connections saving in turn into one file keep every row")
    func twoConnections() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/shared.sqlite"
            let stores = [try FailureStore(path: path), try FailureStore(path: path)]
            for seed in UInt64(1)...40 {
                _ = try stores[Int(seed % 2)].save(FailureRecord(
                    seed: seed, invariant: "x", rules: ["R-\(seed)"], message: "", traceHashHex: "0123456789abcdef",
                    scenarioYAML: "", originalStepCount: 0, shrunkStepCount: 0, createdAtRun: "connection \(seed % 2)"))
            }
            #expect(try stores[0].all().map(\.seed) == Array(1...40))
            #expect(try stores[1].text("PRAGMA quick_check") == "ok")
        }
    }
}
