import Foundation
import Testing

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// The built `stagesim`, beside this test binary in the build folder.
let stagesimPath: String = {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    while directory.path != "/" {
        let candidate = directory.appendingPathComponent("stagesim").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return packageRoot + "/.build/debug/stagesim"
}()

struct ProcessResult {
    var status: Int32
    var output: String
    var errorOutput: String
}

/// Launches `stagesim` as a separate process and collects its output.
func stagesim(_ arguments: [String]) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: stagesimPath)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                         errorOutput: String(decoding: errorData, as: UTF8.self))
}

func traceHash(in output: String) -> String? {
    output.split(separator: "\n").first { $0.contains("trace hash:") }?
        .split(separator: " ").drop { $0 != "hash:" }.dropFirst().first.map(String.init)
}

/// The directory this test process keeps its files in, removed with everything in it when
/// the process exits, so that no run of the tests leaves files behind.
private enum TestFiles {
    static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stagesim-tests-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: TestFiles.root) }
        return root
    }()
}

/// A file with `contents` in a new directory of its own (under `TestFiles.root`).
func temporaryFile(_ name: String, contents: String) throws -> String {
    let directory = TestFiles.root.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite("stagesim run, as separate processes")
struct CLIProcessTests {
    let lossy = "Scenarios/net-lossy-join-publish-subscribe.yaml"

    @Test("two processes on the same scenario and seed print the same trace hash and write identical traces (NET-1)")
    func crossProcessDeterminism() throws {
        let traceA = try temporaryFile("a.jsonl", contents: "")
        let traceB = try temporaryFile("b.jsonl", contents: "")
        let first = try stagesim(["run", lossy, "--seed", "77", "--trace", traceA])
        let second = try stagesim(["run", lossy, "--seed", "77", "--trace", traceB])
        #expect(first.status == 0, "\(first.output)\(first.errorOutput)")
        #expect(first.output.hasPrefix("seed: 77\n"))
        let hash = try #require(traceHash(in: first.output))
        #expect(hash == traceHash(in: second.output))
        let bytesA = try Data(contentsOf: URL(fileURLWithPath: traceA))
        #expect(!bytesA.isEmpty)
        #expect(bytesA == (try Data(contentsOf: URL(fileURLWithPath: traceB))))
    }

    @Test("a streamed trace (no timeline, no events kept) writes the same bytes and prints the same hash as a kept one")
    func streamedTraceMatchesKept() throws {
        let kept = try temporaryFile("kept.jsonl", contents: "")
        let streamed = try temporaryFile("streamed.jsonl", contents: "old contents")
        let keptRun = try stagesim(["run", lossy, "--seed", "77", "--trace", kept])
        let streamedRun = try stagesim(["run", lossy, "--seed", "77", "--no-timeline", "--trace", streamed])
        #expect(streamedRun.status == 0, "\(streamedRun.output)\(streamedRun.errorOutput)")
        #expect(try #require(traceHash(in: keptRun.output)) == traceHash(in: streamedRun.output))
        let keptBytes = try Data(contentsOf: URL(fileURLWithPath: kept))
        #expect(!keptBytes.isEmpty)
        #expect(keptBytes == (try Data(contentsOf: URL(fileURLWithPath: streamed))))
    }

    @Test("on the lossy scenario a different seed gives a different trace")
    func seedsDiffer() throws {
        let first = try stagesim(["run", lossy, "--seed", "77"])
        let second = try stagesim(["run", lossy, "--seed", "78"])
        #expect(traceHash(in: first.output) != nil)
        #expect(traceHash(in: first.output) != traceHash(in: second.output))
    }

    @Test("a directory run ends with a summary table of every scenario")
    func directorySummary() throws {
        let result = try stagesim(["run", "Scenarios"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("scenario"))
        #expect(result.output.contains(" passed, 0 failed"))
    }

    @Test("a bad scenario file gets file:line:column and exit status 2")
    func badFile() throws {
        let path = try temporaryFile("bad.yaml", contents: "name: x\nparticipants:\n  - name: a\n    sdk: phone 1\n")
        let result = try stagesim(["run", path])
        #expect(result.status == 2)
        #expect(result.errorOutput.contains("\(path):4:10: sdk 'phone 1' is not one of"))
    }

    @Test("a failing expectation exits 1 and prints the replay command")
    func failingExpectation() throws {
        let path = try temporaryFile("fail.yaml", contents: """
        name: impossible
        covers: [RND-2]
        participants:
          - name: a
        steps:
          - {at: 0s, participant: a, call: join}
        expect:
          - {never: participantDidJoin, observer: a}

        """)
        let result = try stagesim(["run", path, "--seed", "9"])
        #expect(result.status == 1)
        #expect(result.output.contains("FAIL line 8"))
        #expect(result.output.contains("replay: stagesim run \(path) --seed 9"))
    }

    @Test("a directory run reports every bad file and unreadable link, runs the rest and exits 2")
    func directoryWithBadEntries() throws {
        let bad = try temporaryFile("a-bad.yaml", contents: "name: x\nparticipants:\n  - name: a\n    sdk: phone 1\n")
        let directory = (bad as NSString).deletingLastPathComponent
        try FileManager.default.copyItem(atPath: packageRoot + "/Scenarios/str-2-subscribe-waits-for-publish.yaml", toPath: directory + "/b-good.yaml")
        try FileManager.default.createSymbolicLink(atPath: directory + "/loop", withDestinationPath: "loop")
        try FileManager.default.createSymbolicLink(atPath: directory + "/up", withDestinationPath: ".")
        let result = try stagesim(["run", directory])
        #expect(result.status == 2)
        #expect(result.errorOutput.contains("\(bad):4:10: sdk 'phone 1' is not one of"), "\(result.errorOutput)")
        #expect(result.errorOutput.contains("\(directory)/loop: cannot be read: Too many levels of symbolic links"))
        #expect(result.output.contains("b-good.yaml"))
        #expect(result.output.contains("1 passed, 0 failed, 2 not run"), "\(result.output)")
    }

    @Test("a missing path is a usage error, not a crash")
    func missingPath() throws {
        let result = try stagesim(["run", "no/such/dir"])
        #expect(result.status == 64)
        #expect(result.errorOutput.contains("no such file or directory"))
    }
}
