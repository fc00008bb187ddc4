import ArgumentParser
@testable import FailureStore
import Foundation
import Testing

@testable import stagesim

/// A fresh directory for one test's stores.
private func mergeDirectory() throws -> String {
    (try temporaryFile("marker", contents: "") as NSString).deletingLastPathComponent
}

/// A store at `path` holding a failure per seed, each with its own scenario.
private func makeStore(_ path: String, seeds: [UInt64]) throws {
    let store = try FailureStore(path: path)
    for seed in seeds {
        try store.save(FailureRecord(
            seed: seed, invariant: "views-converge-when-quiet", rules: ["RND-1"], message: "seed \(seed)",
            traceHashHex: "00000000000000aa", scenarioYAML: "scenario of seed \(seed)\n", originalStepCount: 20,
            shrunkStepCount: 2, createdAtRun: "test"))
    }
}

/// Runs `stagesim store merge` in process; returns the error it ended with, if any.
private func merge(_ arguments: [String]) throws -> (any Error)? {
    var command = try StageSimCommand.parseAsRoot(["store", "merge"] + arguments)
    do {
        try command.run()
        return nil
    } catch {
        return error
    }
}

/// `stagesim store merge`: counts per input, and bad inputs that name the file and change nothing.
@Suite("stagesim store merge")
struct StoreMergeCommandTests {
    @Test("the summary says per input how many records, how many new, how many duplicates, then the target's totals")
    func summary() throws {
        let lines = StoreMergeCommand.summary(
            inputs: ["a.sqlite", "shard-2.sqlite"],
            counts: [.init(records: 2, new: 2, duplicates: 0), .init(records: 3, new: 1, duplicates: 2)],
            into: "all.sqlite",
            stored: [1, 2, 3].map {
                FailureRecord(seed: $0, invariant: "i", rules: [], message: "", traceHashHex: "00000000000000aa", scenarioYAML: "",
                              originalStepCount: 0, shrunkStepCount: 0, createdAtRun: "", timesFound: $0 == 1 ? 3 : 1)
            })
        #expect(lines == [
            "a.sqlite        2 records, 2 new, 0 duplicates",
            "shard-2.sqlite  3 records, 1 new, 2 duplicates",
            "all.sqlite: 3 failures, found 5 times in all",
        ])
    }

    @Test("merging into a new target creates it with each failure once")
    func mergesIntoNewTarget() throws {
        let directory = try mergeDirectory()
        try makeStore(directory + "/a.sqlite", seeds: [1, 2])
        try makeStore(directory + "/b.sqlite", seeds: [2, 3])
        #expect(try merge([directory + "/a.sqlite", directory + "/b.sqlite", "--into", directory + "/out/all.sqlite"]) == nil)
        let stored = try FailureStore(readingOnly: directory + "/out/all.sqlite").all()
        #expect(stored.map(\.seed) == [1, 2, 3] && stored.map(\.timesFound) == [1, 2, 1])
    }

    @Test("a missing input, a file that is no store, or a newer schema names the file, and the target stays as it was",
          arguments: ["missing", "text", "newer"])
    func badInputChangesNothing(kind: String) throws {
        let directory = try mergeDirectory()
        let (good, bad, target) = (directory + "/good.sqlite", directory + "/bad.sqlite", directory + "/all.sqlite")
        try makeStore(good, seeds: [1])
        switch kind {
        case "text": try "not a database\n".write(toFile: bad, atomically: true, encoding: .utf8)
        case "newer": try FailureStore(path: bad).execute("PRAGMA user_version = 99")
        default: break
        }
        let error = try #require(try merge([good, bad, "--into", target]))
        #expect(StageSimCommand.exitCode(for: error) == .validationFailure)
        #expect("\(error)".contains(bad), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: target), "a target that did not exist is not created")
        try makeStore(target, seeds: [5])
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(try merge([good, bad, "--into", target]) != nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
    }

    @Test("the target named as an input is refused")
    func targetIsInput() throws {
        let directory = try mergeDirectory()
        try makeStore(directory + "/a.sqlite", seeds: [1])
        #expect(throws: (any Error).self) {
            try StageSimCommand.parseAsRoot(["store", "merge", directory + "/a.sqlite", "--into", directory + "/./a.sqlite"])
        }
    }

    @Test("as a process: a missing input exits 64 and names the file")
    func processExitCode() throws {
        let directory = try mergeDirectory()
        let run = try stagesim(["store", "merge", directory + "/nope.sqlite", "--into", directory + "/all.sqlite"])
        #expect(run.status == 64, "\(run.output)\(run.errorOutput)")
        #expect(run.errorOutput.contains("\(directory)/nope.sqlite"), "\(run.errorOutput)")
    }
}
