import FailureStore
import Foundation
import Testing

@Suite("stagesim report visibility, as separate processes")
struct ReportCommandTests {
    private func reportDirectory() throws -> String {
        let marker = try temporaryFile("marker", contents: "")
        return (marker as NSString).deletingLastPathComponent
    }

    @Test("two processes write byte-identical visibility reports, and the matrix equals the seed's table (VIS, NET-1)")
    func deterministicReport() throws {
        let first = try reportDirectory()
        let second = try reportDirectory()
        let runs = try [first, second].map { try stagesim(["report", "visibility", "--seeds", "3", "--out", $0]) }
        for run in runs {
            #expect(run.status == 0, "\(run.output)\(run.errorOutput)")
            #expect(run.output.contains("cells matching the seed's table: 12/12; invariant violations: 0"))
        }
        for file in ["visibility.md", "visibility.json"] {
            let one = try Data(contentsOf: URL(fileURLWithPath: first + "/" + file))
            let other = try Data(contentsOf: URL(fileURLWithPath: second + "/" + file))
            #expect(!one.isEmpty)
            #expect(one == other, "\(file) differs between processes")
        }
    }

    @Test("a bad --seeds value is a usage error")
    func badSeeds() throws {
        let run = try stagesim(["report", "visibility", "--seeds", "0"])
        #expect(run.status == 64)
        #expect(run.errorOutput.contains("--seeds <seeds>': expected a whole number from 1 to 100000"))
    }

    @Test("the checked-in report is what the command generates today")
    func checkedInReportIsCurrent() throws {
        let directory = try reportDirectory()
        let checkedIn = try String(contentsOfFile: packageRoot + "/Reports/visibility.md", encoding: .utf8)
        let seedsLine = try #require(checkedIn.split(separator: "\n").first { $0.contains("--seeds ") })
        let seeds = try #require(seedsLine.split(separator: "--seeds ").last?.split(separator: "`").first)
        let run = try stagesim(["report", "visibility", "--seeds", String(seeds), "--out", directory])
        #expect(run.status == 0)
        let generated = try String(contentsOfFile: directory + "/visibility.md", encoding: .utf8)
        #expect(generated == checkedIn, "Reports/visibility.md is stale: run `swift run stagesim report visibility`")
    }
}

@Suite("stagesim run --swarm, as separate processes")
struct SwarmRunTests {
    @Test("the drawn faults are printed under the seed, and two processes give the same trace hash (NET-2, NET-1)")
    func swarmIsDeterministic() throws {
        let arguments = ["run", "Scenarios/str-2-subscribe-waits-for-publish.yaml", "--swarm", "--seed", "12", "--no-timeline"]
        let first = try stagesim(arguments)
        let second = try stagesim(arguments)
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("swarm faults: "))
        #expect(first.output.contains("expectations are not checked under --swarm"))
        #expect(traceHash(in: first.output) != nil)
        #expect(traceHash(in: first.output) == traceHash(in: second.output))
        let other = try stagesim(["run", "Scenarios/str-2-subscribe-waits-for-publish.yaml", "--swarm", "--seed", "13", "--no-timeline"])
        #expect(other.output.split(separator: "\n").first { $0.contains("swarm faults") }
                != first.output.split(separator: "\n").first { $0.contains("swarm faults") })
    }
}

@Suite("stagesim fuzz, replay and invariants, as separate processes")
struct FuzzCommandTests {
    @Test("invariants lists every monitor with its rules")
    func listsInvariants() throws {
        let run = try stagesim(["invariants"])
        #expect(run.status == 0)
        #expect(run.output.contains("metadata-visibility") && run.output.contains("[VIS-1, VIS-2, VIS-3, VIS-4]"))
        #expect(run.output.contains("subscriber-lifecycle-order"))
    }

    @Test("fuzz runs seeds on every core, prints a summary and passes; replay of a seed prints its parameters")
    func fuzzAndReplaySeed() throws {
        let directory = (try temporaryFile("marker", contents: "") as NSString).deletingLastPathComponent
        let fuzz = try stagesim(["fuzz", "--seeds", "6", "--from", "40", "--jobs", "2", "--regressions", directory, "--db", directory + "/f.sqlite"])
        #expect(fuzz.status == 0, "\(fuzz.output)")
        #expect(fuzz.output.contains("ran 6 seeds"))
        let replay = try stagesim(["replay", "41"])
        #expect(replay.status == 0)
        #expect(replay.output.contains("participants="))
        #expect(replay.output.contains("invariants: all hold"))
    }

    @Test("replay --id reruns a stored failure and compares its trace hash with the recorded one")
    func replayStored() throws {
        let directory = (try temporaryFile("marker", contents: "") as NSString).deletingLastPathComponent
        let scenarioPath = packageRoot + "/Scenarios/str-2-subscribe-waits-for-publish.yaml"
        let yaml = try String(contentsOfFile: scenarioPath, encoding: .utf8)
        let hash = try #require(traceHash(in: try stagesim(["run", scenarioPath, "--no-timeline"]).output))
        let store = try FailureStore(path: directory + "/f.sqlite")
        let id = try store.save(FailureRecord(
            seed: 2, invariant: "example", rules: ["STR-2"], message: "a stored case", traceHashHex: hash, scenarioYAML: yaml,
            originalStepCount: 4, shrunkStepCount: 4, createdAtRun: "test"
        ))
        let replay = try stagesim(["replay", "--id", "\(id)", "--db", directory + "/f.sqlite"])
        #expect(replay.status == 0, "\(replay.output)\(replay.errorOutput)")
        #expect(replay.output.contains("same trace hash as when it was found"))
        let missing = try stagesim(["replay", "--id", "99", "--db", directory + "/f.sqlite"])
        #expect(missing.status == 64)
        #expect(missing.errorOutput.contains("no failure 99"))
    }
}
