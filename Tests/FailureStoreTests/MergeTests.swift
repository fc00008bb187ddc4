import Foundation
import Testing

@testable import FailureStore

/// A temporary directory, removed afterwards.
private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MergeTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(directory.path)
}

/// A failure of `seed` whose shrunk scenario is `scenario`.
private func failure(_ seed: UInt64, scenario: String, invariant: String = "views-converge-when-quiet", hash: String = "00000000000000aa")
    -> FailureRecord
{
    FailureRecord(
        seed: seed, invariant: invariant, rules: ["RND-1", "STG-2"], message: "seed \(seed)", traceHashHex: hash,
        scenarioYAML: scenario, originalStepCount: 30, shrunkStepCount: 2, createdAtRun: "fuzz seeds 1...8 shard 1/2")
}

/// The fields a merge keeps, without the id the target gives.
private func content(_ records: [FailureRecord]) -> [FailureRecord] {
    records.map { var record = $0; record.id = nil; return record }
}

/// A version 1 store (before `failure_finds`) at `path` holding `records`.
private func makeVersion1Store(at path: String, _ records: [FailureRecord]) throws {
    let store = try FailureStore(path: path)
    for record in records { try store.save(record) }
    try store.execute("DROP TABLE failure_finds")
    try store.execute("PRAGMA user_version = 1")
}

@Suite("Failure store: merging stores, schema version 2")
struct MergeTests {
    @Test("merging counts new records and duplicates per source, stores each failure once, and adds up its finds")
    func countsDuplicates() throws {
        let store = try FailureStore(path: ":memory:")
        let a = [failure(1, scenario: "one"), failure(2, scenario: "two")]
        let b = [failure(2, scenario: "two"), failure(3, scenario: "three"), failure(9, scenario: "one")]
        let counts = try store.merge([a, b])
        #expect(counts == [.init(records: 2, new: 2, duplicates: 0), .init(records: 3, new: 1, duplicates: 2)])
        let stored = try store.all()
        #expect(stored.map(\.seed) == [1, 2, 3])
        #expect(stored.map(\.timesFound) == [2, 2, 1])
        #expect(stored.map(\.rules) == Array(repeating: ["RND-1", "STG-2"], count: 3))
        let again = try store.merge([content(stored)])
        #expect(again == [.init(records: 3, new: 0, duplicates: 3)])
        #expect(try store.all().map(\.timesFound) == [4, 4, 2])
    }

    @Test("a duplicate is the same invariant and scenario text, or the same (seed, invariant, trace hash); another invariant is new")
    func duplicateKey() throws {
        let store = try FailureStore(path: ":memory:")
        let counts = try store.merge([
            [failure(1, scenario: "one")],
            [failure(1, scenario: "one, written elsewhere"), failure(1, scenario: "one", invariant: "secrets-stay-secret")],
        ])
        #expect(counts == [.init(records: 1, new: 1, duplicates: 0), .init(records: 2, new: 1, duplicates: 1)])
        #expect(try store.all().map(\.timesFound) == [2, 1])
    }

    @Test("a record found several times keeps its count when it is new to the target")
    func carriesCounts() throws {
        let source = try FailureStore(path: ":memory:")
        _ = try source.merge([[failure(1, scenario: "one")], [failure(1, scenario: "one")]])
        let target = try FailureStore(path: ":memory:")
        _ = try target.merge([try source.all()])
        #expect(try target.all().map(\.timesFound) == [2])
        #expect(content(try target.all()) == content(try source.all()))
    }

    @Test("a merge that fails part-way leaves the target exactly as it was (one transaction)")
    func failingMergeChangesNothing() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/all.sqlite"
            let store = try FailureStore(path: path)
            _ = try store.merge([[failure(1, scenario: "one")]])
            let before = try store.all()
            let bad = failure(7, scenario: "seven", hash: "not hex")
            #expect(throws: FailureStoreError.self) {
                try store.merge([[failure(1, scenario: "one"), failure(2, scenario: "two")], [bad]])
            }
            #expect(try store.all() == before)
            #expect(try FailureStore(path: path).all() == before)
        }
    }

    @Test("a version 1 store opened read-only is read as it is (each failure found once) and left unchanged")
    func readsVersion1() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/old.sqlite"
            try makeVersion1Store(at: path, [failure(1, scenario: "one"), failure(2, scenario: "two")])
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let records = try FailureStore(readingOnly: path).all()
            #expect(records.map(\.seed) == [1, 2] && records.allSatisfy { $0.timesFound == 1 })
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }

    @Test("a version 1 store opened for writing is upgraded to version 2 and keeps its records")
    func upgradesVersion1() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/old.sqlite"
            try makeVersion1Store(at: path, [failure(1, scenario: "one")])
            let store = try FailureStore(path: path)
            #expect(try store.integer("PRAGMA user_version") == 2)
            #expect(try store.all().map(\.seed) == [1])
            _ = try store.merge([[failure(1, scenario: "one")]])
            #expect(try FailureStore(path: path).all().map(\.timesFound) == [2])
        }
    }

    @Test("an empty file opened read-only holds no records and stays empty")
    func readsEmptyFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/empty.sqlite"
            FileManager.default.createFile(atPath: path, contents: nil)
            let records = try FailureStore(readingOnly: path).all()
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(records.isEmpty && bytes.isEmpty)
        }
    }

    @Test("opening read-only refuses a missing file without creating it, and a newer schema")
    func readOnlyRefusals() throws {
        try withTemporaryDirectory { directory in
            let missing = directory + "/missing.sqlite"
            #expect(throws: FailureStoreError.missing(path: missing)) { try FailureStore(readingOnly: missing) }
            #expect(!FileManager.default.fileExists(atPath: missing))
            let newer = directory + "/newer.sqlite"
            try FailureStore(path: newer).execute("PRAGMA user_version = 3")
            #expect(throws: FailureStoreError.newerSchema(path: newer, found: 3, supported: 2)) { try FailureStore(readingOnly: newer) }
        }
    }
}
