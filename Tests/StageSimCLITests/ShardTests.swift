import ArgumentParser
import FailureStore
import Foundation
import StageCore
import Testing

@testable import stagesim

/// The parsed `stagesim fuzz` command of `arguments`.
private func fuzzCommand(_ arguments: [String]) throws -> FuzzCommand {
    try #require(try StageSimCommand.parseAsRoot(["fuzz"] + arguments) as? FuzzCommand)
}

/// A fresh directory for one test's stores and regression files.
private func shardDirectory() throws -> String {
    (try temporaryFile("marker", contents: "") as NSString).deletingLastPathComponent
}

/// What identifies a failure across stores: its seed, invariant and shrunk scenario text.
private struct Found: Hashable {
    let seed: UInt64
    let invariant: String
    let scenario: String

    init(_ record: FailureRecord) { (seed, invariant, scenario) = (record.seed, record.invariant, record.scenarioYAML) }
}

/// Runs `stagesim fuzz` in process with a mutant that almost every seed fails; returns what it stored.
private func fuzz(_ arguments: [String], directory: String, db: String) throws -> [FailureRecord] {
    var command = try fuzzCommand(
        ["--mutant", "drop-answered-connection", "--participants", "2", "--duration", "10", "--jobs", "2",
         "--db", db, "--regressions", directory + "/regressions"] + arguments)
    do {
        try command.run()
    } catch let exit as ExitCode where exit == ExitCode(1) {}  // failures found: the point of the mutant
    return try FailureStore(readingOnly: db).all()
}

/// `fuzz --shard K/N`: disjoint slices whose union is the range, clear refusals, and a sharded
/// campaign merged finds what the unsharded one finds.
@Suite("Sharded fuzz campaigns")
struct ShardTests {
    @Test("the N slices are disjoint, in order, and together exactly the range", arguments: [1, 2, 3, 4, 7, 16])
    func slicesPartitionTheRange(shards: Int) throws {
        for (from, seeds) in [(UInt64(1), 1), (1, 3), (5, 100), (0, 17), (UInt64.max - 9, 10)] {
            let slices = (1...shards).map { FuzzShard(index: $0, count: shards).slice(first: from, seeds: seeds).all }
            let union = slices.flatMap { $0 }
            #expect(union.sorted() == (0..<seeds).map { from + UInt64($0) }, "from \(from), \(seeds) seeds, \(shards) shards")
            #expect(Set(union).count == union.count)
            #expect(slices.allSatisfy { $0 == $0.sorted() })
            #expect(slices.map(\.count).max()! - slices.map(\.count).min()! <= 1, "balanced to one seed")
        }
    }

    @Test("--shard K/N parses for 1 <= K <= N; anything else is a usage error (exit 64) naming the option",
          arguments: ["0/4", "5/4", "a/b", "4", "1/0", "-1/4", "1/4/2", "", "2/1000001"])
    func badShard(text: String) {
        do {
            _ = try StageSimCommand.parseAsRoot(["fuzz", "--shard", text])
            Issue.record("--shard \(text) parsed")
        } catch {
            #expect(StageSimCommand.exitCode(for: error) == .validationFailure)
            let message = StageSimCommand.message(for: error)
            #expect(message.contains("--shard") && message.contains("1 <= K <= N"), "\(message)")
        }
    }

    @Test("--fresh with --shard is refused: each process would draw its own range")
    func freshWithShard() throws {
        #expect(throws: (any Error).self) { try StageSimCommand.parseAsRoot(["fuzz", "--fresh", "--shard", "1/2"]) }
        do {
            _ = try StageSimCommand.parseAsRoot(["fuzz", "--fresh", "--shard", "1/2"])
        } catch {
            #expect(StageSimCommand.exitCode(for: error) == .validationFailure)
            #expect(StageSimCommand.message(for: error).contains("--fresh"))
        }
        #expect(try fuzzCommand(["--fresh", "--shard", "1/1"]).shard == .whole)
    }

    @Test("each shard's run label names its shard; an unsharded run's does not")
    func runLabels() throws {
        #expect(try fuzzCommand(["--from", "5", "--seeds", "10", "--shard", "3/4"]).runLabel(first: 5) == "fuzz seeds 5...14 shard 3/4")
        #expect(try fuzzCommand(["--from", "5", "--seeds", "10"]).runLabel(first: 5) == "fuzz seeds 5...14")
    }

    @Test("4 shards merged find exactly the failures of one unsharded run, with a mutant on",
          .enabled(if: Mutants.areAvailable, "mutants exist in debug builds only"))
    func shardsMergedEqualOneRun() throws {
        let directory = try shardDirectory()
        let range = ["--from", "1", "--seeds", "16"]
        let whole = try fuzz(range, directory: directory, db: directory + "/whole.sqlite")
        var shardStores: [String] = []
        for shard in 1...4 {
            let db = directory + "/shard-\(shard).sqlite"
            let records = try fuzz(range + ["--shard", "\(shard)/4"], directory: directory, db: db)
            #expect(records.allSatisfy { $0.createdAtRun == "fuzz seeds 1...16 shard \(shard)/4" && ($0.seed - 1) % 4 == UInt64(shard - 1) })
            shardStores.append(db)
        }
        var merge = try #require(try StageSimCommand.parseAsRoot(["store", "merge"] + shardStores + ["--into", directory + "/all.sqlite"]) as? StoreMergeCommand)
        try merge.run()
        let merged = try FailureStore(readingOnly: directory + "/all.sqlite").all()
        #expect(!whole.isEmpty)
        #expect(Set(merged.map(Found.init)) == Set(whole.map(Found.init)))
        #expect(merged.count == whole.count && merged.allSatisfy { $0.timesFound == 1 })
    }
}

/// The header's words for a shard's slice.
@Suite("Sharded fuzz campaigns: the header")
struct ShardHeaderTests {
    @Test("the header names the shard's seeds, and says so when a shard has none")
    func describe() {
        #expect(FuzzCommand.describe(FuzzShard(index: 2, count: 4).slice(first: 1, seeds: 100), of: 100) == "25 of the 100 seeds (2, 6, 10, ...)")
        #expect(FuzzCommand.describe(FuzzShard(index: 2, count: 4).slice(first: 1, seeds: 6), of: 6) == "2 of the 6 seeds (2, 6)")
        #expect(FuzzCommand.describe(FuzzShard(index: 4, count: 4).slice(first: .max, seeds: 1), of: 1) == "0 of the 1 seeds")
    }
}
