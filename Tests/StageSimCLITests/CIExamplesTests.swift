import ArgumentParser
import Foundation
import Testing
import Yams

@testable import stagesim

private let examples = packageRoot + "/ci/examples"

/// Every YAML document of the example file `name`, parsed by Yams.
private func documents(_ name: String) throws -> [Node] {
    let text = try String(contentsOfFile: examples + "/" + name, encoding: .utf8)
    return try Array(Yams.compose_all(yaml: text))
}

/// The `stagesim` command lines of shard `shard` in a node tree: in every string (with the
/// shard put for its placeholders), the words after a word naming `stagesim` up to `||`, `;` or
/// the end; and every sequence whose first item is `stagesim`.
private func commands(in node: Node, shard: Int) -> [[String]] {
    switch node {
    case .scalar(let scalar): return commands(inText: scalar.string, shard: shard)
    case .mapping(let mapping): return mapping.values.flatMap { commands(in: $0, shard: shard) }
    case .sequence(let sequence):
        let items = sequence.compactMap(\.string)
        if items.count == sequence.count, items.first == "stagesim" { return [Array(items.dropFirst())] }
        return sequence.flatMap { commands(in: $0, shard: shard) }
    case .alias: return []
    }
}

private func commands(inText text: String, shard: Int) -> [[String]] {
    let filled = text.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(shard)").replacingOccurrences(of: "$K", with: "\(shard)")
    return filled.components(separatedBy: ";").flatMap { $0.components(separatedBy: "||") }.compactMap { segment in
        let words = segment.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let start = words.firstIndex(where: { $0 == "stagesim" || $0.hasSuffix("/stagesim") }) else { return nil }
        return Array(words[(start + 1)...])
    }
}

/// Each shard's fuzz command parses as shard K/N with this build's flags, and the merge reads
/// exactly the stores the shards write.
private func checkCommands(in nodes: [Node], shards: Int) throws {
    var written: [String] = []
    for shard in 1...shards {
        let words = try #require(nodes.flatMap { commands(in: $0, shard: shard) }.first { $0.first == "fuzz" })
        let command = try #require(try StageSimCommand.parseAsRoot(words) as? FuzzCommand)
        #expect(command.shard == FuzzShard(index: shard, count: shards))
        written.append(command.db)
    }
    let words = try #require(nodes.flatMap { commands(in: $0, shard: 0) }.first { $0.first == "store" })
    let merging = try #require(try StageSimCommand.parseAsRoot(words) as? StoreMergeCommand)
    #expect(merging.inputs == written)
    #expect(merging.into.hasSuffix("all.sqlite"))
}

/// The CI examples under `ci/examples/` are valid YAML, and the commands they run parse with
/// the flags `stagesim` has.
@Suite("CI examples")
struct CIExamplesTests {
    @Test("the GitHub Actions workflow: a matrix of shards 1...N, each fuzzing shard K/N into its store, then a merge of them all")
    func githubActions() throws {
        let workflow = try #require(try documents("github-actions-sharded-fuzz.yml").first)
        let matrix = try #require(workflow["jobs"]?["fuzz"]?["strategy"]?["matrix"]?["shard"]?.sequence)
        let shards = matrix.compactMap(\.int)
        #expect(shards == Array(1...shards.count) && shards.count > 1)
        #expect(workflow["jobs"]?["merge"]?["needs"]?.string == "fuzz")
        try checkCommands(in: [workflow], shards: shards.count)
    }

    @Test("the Kubernetes Indexed Job: N completions, K from JOB_COMPLETION_INDEX, stores on a shared volume, and a merge Job")
    func kubernetes() throws {
        let all = try documents("kubernetes-indexed-fuzz.yml")
        let jobs = all.filter { $0["kind"]?.string == "Job" }
        let fuzzJob = try #require(jobs.first { $0["spec"]?["completionMode"]?.string == "Indexed" })
        let completions = try #require(fuzzJob["spec"]?["completions"]?.int)
        #expect(fuzzJob["spec"]?["parallelism"]?.int == completions)
        let script = try #require(fuzzJob["spec"]?["template"]?["spec"]?["containers"]?[0]?["args"]?[0]?.string)
        #expect(script.contains("K=$((JOB_COMPLETION_INDEX + 1))") && script.contains("--shard $K/\(completions)"))
        #expect(all.contains { $0["kind"]?.string == "PersistentVolumeClaim" })
        try checkCommands(in: jobs, shards: completions)
    }
}
