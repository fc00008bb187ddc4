import ArgumentParser
import FailureStore
import Foundation

/// `stagesim store`: work on failure stores as files.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Work on failure stores.",
        subcommands: [StoreMergeCommand.self]
    )
}

/// `stagesim store merge A B ... --into T`: the failures of several stores (such as the shards
/// of one campaign) in one store, each failure once, with how many times it was found.
struct StoreMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge failure stores into one, in one transaction, counting duplicates instead of repeating them.",
        discussion: """
            A failure duplicates one already in the target when it has the same invariant and the same shrunk scenario \
            text (or the same seed, invariant and trace hash); it is not stored again, and the stored failure's count of \
            finds goes up. Every input is opened read-only and checked before the target is touched; the target is \
            created if missing. Exit status: 0 when merged; 64 when a file is missing or not a failure store, and 1 when \
            the merge itself fails (rolled back); either way the target is left as it was.
            """
    )

    @Argument(help: "The failure stores to merge (read, never changed).") var inputs: [String]
    @Option(help: "The failure store to merge into (created if missing).") var into: String

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one failure store to merge") }
        let target = Self.canonical(into)
        if let same = inputs.first(where: { Self.canonical($0) == target }) {
            throw ValidationError("'\(same)' is both an input and the --into target")
        }
    }

    func run() throws {
        let sources = try inputs.map(Self.read)
        let store: FailureStore
        do {
            let directory = (into as NSString).deletingLastPathComponent
            if !directory.isEmpty { try FileOutput.makeDirectories(directory) }
            store = try FailureStore(path: into)
        } catch {
            throw ValidationError("--into: \(error)")
        }
        do {
            let counts = try store.merge(sources)
            Self.summary(inputs: inputs, counts: counts, into: into, stored: try store.all()).forEach { print($0) }
        } catch {
            throw MergeFailure(description: "--into \(into): \(error)")
        }
    }

    /// Every record of the store at `path`, opened read-only; an error names the file.
    private static func read(_ path: String) throws -> [FailureRecord] {
        do {
            return try FailureStore(readingOnly: path).all()
        } catch {
            throw ValidationError("\(path): \(error); nothing was merged")
        }
    }

    /// One line per input, then the target's totals.
    static func summary(inputs: [String], counts: [FailureStore.MergeCount], into: String, stored: [FailureRecord]) -> [String] {
        let width = inputs.map(\.count).max() ?? 0
        var lines = zip(inputs, counts).map { path, count in
            path.padding(toLength: width, withPad: " ", startingAt: 0)
                + "  \(count.records) records, \(count.new) new, \(count.duplicates) duplicates"
        }
        let finds = stored.reduce(0) { $0 + $1.timesFound }
        lines.append("\(into): \(stored.count) failures, found \(finds) times in all")
        return lines
    }

    /// A path made absolute and free of `.`, `..` and links, to catch a target named as an input.
    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }
}

/// A merge that failed once the inputs were read (exit 1); the transaction left the target as it was.
struct MergeFailure: Error, CustomStringConvertible {
    let description: String
}
