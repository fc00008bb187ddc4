import ArgumentParser
import Foundation
import Testing

@testable import stagesim

/// A regular file, and a path below it that can never be created (its parent is not a directory).
private func fileAndPathBelowIt() throws -> (file: String, below: String) {
    let file = try temporaryFile("plain.txt", contents: "not a directory\n")
    return (file, file + "/out")
}

/// The usage error (exit 64) `arguments` get, or nil when they parse.
private func usageError(_ arguments: [String]) -> String? {
    do {
        _ = try StageSimCommand.parseAsRoot(arguments)
        return nil
    } catch {
        #expect(StageSimCommand.exitCode(for: error) == .validationFailure, "\(arguments)")
        return StageSimCommand.message(for: error)
    }
}

/// Hostile command lines, in process: every numeric option is range-checked with a usage error
/// naming the option and the range, and outputs are checked before any work starts.
@Suite("Command-line input")
struct CommandLineInputTests {
    @Test("a numeric option out of range, negative, not a number, nan or inf is a usage error naming the option and the range",
          arguments: [
              (["fuzz", "--seeds", "-5"], "'--seeds <seeds>': expected a whole number from 1 to 1000000000"),
              (["fuzz", "--seeds", "99999999999999999999"], "from 1 to 1000000000"),
              (["fuzz", "--jobs", "-1"], "'--jobs <jobs>': expected a whole number from 1 to 256"),
              (["fuzz", "--jobs", "0"], "from 1 to 256"),
              (["fuzz", "--from", "-1"], "'--from <from>': expected a whole number from 0 to 18446744073709551615"),
              (["fuzz", "--time", "nan"], "'--time <time>': expected a number of seconds from 0.001"),
              (["fuzz", "--time", "inf"], "expected a number of seconds"),
              (["fuzz", "--time", "-3"], "expected a number of seconds"),
              (["fuzz", "--busy-timeout", "-1"], "'--busy-timeout <busy-timeout>': expected a number of seconds from 0.0 to 3600.0"),
              (["fuzz", "--participants", "13"], "from 1 to 12"),
              (["fuzz", "--duration", "4"], "from 5 to 3600"),
              (["fuzz", "--max-failures", "0"], "'--max-failures <max-failures>'"),
              (["run", "x.yaml", "--seed", "-3"], "'--seed <seed>': expected a whole number from 0"),
              (["check", "x.yaml", "--depth", "0"], "'--depth <depth>'"),
              (["check", "x.yaml", "--max-drops", "-1"], "'--max-drops <max-drops>'"),
              (["check", "x.yaml", "--max-states", "ten"], "'--max-states <max-states>'"),
              (["check", "x.yaml", "--jobs", "-2"], "from 1 to 256"),
              (["report", "visibility", "--seeds", "0"], "from 1 to 100000"),
              (["replay", "--id", "-1"], "'--id <id>': expected a whole number from 1"),
              (["selftest", "--inputs", "0"], "'--inputs <inputs>': expected a whole number from 1 to 1000000000"),
              (["selftest", "--inputs", "-3"], "from 1 to 1000000000"),
              (["selftest", "--jobs", "0"], "from 1 to 256"),
              (["selftest", "--kind", "yaml"], "'--kind <kind>'"),
          ])
    func outOfRange(arguments: [String], message: String) {
        let error = usageError(arguments)
        #expect(error?.contains(message) == true, "\(arguments): \(error ?? "accepted")")
    }

    @Test("--from plus --seeds past the last seed is a usage error; ending exactly on it is not")
    func seedRangeOverflow() {
        #expect(usageError(["fuzz", "--from", "18446744073709551615", "--seeds", "2"])?.contains("runs past the last seed") == true)
        #expect(usageError(["fuzz", "--from", "18446744073709551615", "--seeds", "1"]) == nil)
        #expect(usageError(["fuzz", "--from", "18446744073709551606", "--seeds", "10"]) == nil)
        #expect(usageError(["selftest", "--from", "18446744073709551615", "--inputs", "2"])?.contains("passes the largest input number") == true)
        #expect(usageError(["selftest", "--from", "18446744073709551615", "--inputs", "1"]) == nil)
    }

    @Test("selftest runs the last input number without overflow, and counts what each parser did")
    func selftestLastInput() throws {
        let command = try #require(try StageSimCommand.parseAsRoot(["selftest", "--kind", "token", "--from", "18446744073709551615", "--inputs", "1", "--jobs", "1"]) as? SelftestCommand)
        try command.run()
    }

    @Test("report --out, run --trace, --html, --trace-events and check --out that cannot be written fail before any work, with the system's reason")
    func outputsCheckedFirst() throws {
        let (file, below) = try fileAndPathBelowIt()
        let scenario = packageRoot + "/Scenarios/str-2-subscribe-waits-for-publish.yaml"
        let cases: [([String], String)] = [
            (["report", "visibility", "--out", below], "--out: cannot write \(below): Not a directory"),
            (["run", scenario, "--trace", below], "--trace: cannot write \(file): it is not a directory"),
            (["run", scenario, "--trace", packageRoot + "/Scenarios"], "--trace: cannot write \(packageRoot)/Scenarios: Is a directory"),
            (["run", packageRoot + "/Scenarios/check", "--trace", file], "--trace: cannot write \(file): it is not a directory"),
            (["check", scenario, "--out", below], "--out: cannot write \(file): it is not a directory"),
            (["run", scenario, "--html", below], "--html: cannot write \(file): it is not a directory"),
            (["run", scenario, "--trace-events", below], "--trace-events: cannot write \(file): it is not a directory"),
            (["replay", "3", "--html", below], "--html: cannot write \(file): it is not a directory"),
            (["run", packageRoot + "/Scenarios/check", "--html", file], "--html and --trace-events need a single scenario file"),
        ]
        for (arguments, message) in cases {
            var command = try StageSimCommand.parseAsRoot(arguments)
            do {
                try command.run()
                Issue.record("\(arguments) ran")
            } catch {
                #expect(error is ValidationError && "\(error)".contains(message), "\(arguments): \(error)")
            }
        }
    }

    @Test("replay --id names a missing store or a file that is no store, instead of 'no failure N'")
    func replayFromMissingStore() throws {
        let (file, below) = try fileAndPathBelowIt()
        for (db, message) in [(below, "there is no failure store at"), (file, "is not a failure store")] {
            var command = try StageSimCommand.parseAsRoot(["replay", "--id", "1", "--db", db])
            do {
                try command.run()
                Issue.record("replay from \(db) succeeded")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: below))
    }

    @Test("a whole write leaves the file and no temporary beside it; an existing file is replaced")
    func writeWhole() throws {
        let directory = (try temporaryFile("marker", contents: "") as NSString).deletingLastPathComponent
        let path = directory + "/out/deep/file.txt"
        try FileOutput.makeDirectories((path as NSString).deletingLastPathComponent)
        try FileOutput.writeWhole("first", to: path)
        try FileOutput.writeWhole("second", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/out/deep") == ["file.txt"])
        try FileOutput.checkFile(directory + "/unused.txt")
        #expect(!FileManager.default.fileExists(atPath: directory + "/unused.txt"))
    }
}
