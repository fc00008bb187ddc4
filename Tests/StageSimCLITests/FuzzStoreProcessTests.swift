import Foundation
import Testing

@testable import FailureStore

/// Runs several `stagesim` processes at once (output to files, so no pipe fills up) and waits
/// for all of them.
private func stagesimConcurrently(_ runs: [[String]], in directory: String) throws -> [ProcessResult] {
    let launched = try runs.enumerated().map { index, arguments in
        let outputPath = directory + "/process-\(index).out"
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: stagesimPath)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, outputPath)
    }
    return try launched.map { process, outputPath in
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, output: try String(contentsOfFile: outputPath, encoding: .utf8), errorOutput: "")
    }
}

/// A fresh directory for one test's store and regression files.
private func campaignDirectory() throws -> String {
    (try temporaryFile("marker", contents: "") as NSString).deletingLastPathComponent
}

/// A campaign with the `drop-answered-connection` mutant (almost every seed fails at once).
private func mutantCampaign(from: Int, seeds: Int, directory: String, extra: [String] = []) -> [String] {
    ["fuzz", "--mutant", "drop-answered-connection", "--from", "\(from)", "--seeds", "\(seeds)", "--jobs", "1",
     "--db", directory + "/failures.sqlite", "--regressions", directory + "/regressions"] + extra
}

/// The `K` of the summary line "ran N seeds in ... : K failing, ...".
private func failingCount(_ output: String) -> Int? {
    let summary = output.split(separator: "\n").first { $0.hasPrefix("ran ") }
    return summary?.split(separator: ":").last?.split(separator: " ").first.flatMap { Int($0) }
}

private func regressionFiles(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/regressions")) ?? []).filter { $0.hasSuffix(".yaml") }
}

/// `stagesim fuzz` and its failure store, as separate processes: failures are saved as they are
/// found, a shared store keeps every row, and a busy or bad store loses nothing.
@Suite("stagesim fuzz and the failure store, as separate processes")
struct FuzzStoreProcessTests {
    @Test("two campaigns writing one new store at once keep every row, each with its regression file")
    func twoCampaignsOneStore() throws {
        let directory = try campaignDirectory()
        let results = try stagesimConcurrently(
            [mutantCampaign(from: 1, seeds: 12, directory: directory), mutantCampaign(from: 101, seeds: 12, directory: directory)],
            in: directory)
        let found = results.compactMap { failingCount($0.output) }
        #expect(results.allSatisfy { $0.status == 1 }, "\(results.map(\.output))")
        #expect(found.count == 2 && found.allSatisfy { $0 > 0 }, "\(results.map(\.output))")
        let store = try FailureStore(path: directory + "/failures.sqlite")
        let records = try store.all()
        #expect(records.count == found.reduce(0, +))
        #expect(Set(records.map(\.createdAtRun)) == ["fuzz seeds 1...12", "fuzz seeds 101...112"])
        #expect(records.allSatisfy { FileManager.default.fileExists(atPath: $0.regressionPath ?? "") })
        #expect(try store.text("PRAGMA quick_check") == "ok")
    }

    @Test("a store locked by another writer past --busy-timeout: the campaign goes on, keeps the regression files and says so")
    func busyStore() throws {
        let directory = try campaignDirectory()
        let holder = try FailureStore(path: directory + "/failures.sqlite")
        try holder.execute("BEGIN IMMEDIATE")
        let run = try stagesim(mutantCampaign(from: 1, seeds: 2, directory: directory, extra: ["--busy-timeout", "0.2"]))
        try holder.execute("COMMIT")
        #expect(run.status == 1)
        #expect(run.output.contains("stayed locked by another writer for 0.2 s"), "\(run.output)")
        #expect(run.output.contains("are NOT in \(directory)/failures.sqlite; their regression files are their only copy"))
        #expect(regressionFiles(directory).count == failingCount(run.output))
        #expect(try holder.all().isEmpty)
    }

    @Test("a --db that is no failure store stops the campaign before its first seed and is left as it was")
    func badStoreBeforeFirstSeed() throws {
        let directory = try campaignDirectory()
        let text = "these are notes, not a database\n"
        try text.write(toFile: directory + "/failures.sqlite", atomically: true, encoding: .utf8)
        let run = try stagesim(mutantCampaign(from: 1, seeds: 50, directory: directory))
        #expect(run.status == 64)
        #expect(run.errorOutput.contains("is not a failure store (it is not an SQLite database)"), "\(run.errorOutput)")
        #expect(!run.output.contains("breaks"))
        #expect(try String(contentsOfFile: directory + "/failures.sqlite", encoding: .utf8) == text)
    }

    @Test("the last seed can be fuzzed: --from 18446744073709551615 --seeds 1 runs without an overflow")
    func lastSeed() throws {
        let directory = try campaignDirectory()
        let run = try stagesim(["fuzz", "--from", "18446744073709551615", "--seeds", "1", "--db", directory + "/f.sqlite",
                                "--regressions", directory + "/regressions"])
        #expect(run.output.contains("seeds: 18446744073709551615...18446744073709551615"), "\(run.output)\(run.errorOutput)")
        #expect(run.output.contains("ran 1 seeds"))
    }
}
