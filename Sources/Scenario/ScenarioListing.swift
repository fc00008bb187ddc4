import Foundation

/// The scenario files under a directory, and every entry of the tree that could not be read,
/// so that a run can name what it skipped instead of skipping it silently. Links are followed
/// (each directory is read once, so a link back up the tree ends there).
public struct ScenarioListing: Sendable {
    /// A directory or link that could not be read, and why.
    public struct Unreadable: Sendable, Equatable {
        public var path: String
        public var reason: String
    }

    /// Every `.yaml` and `.yml` file, sorted.
    public private(set) var files: [String] = []
    /// The entries that could not be read, in the order they were met.
    public private(set) var unreadable: [Unreadable] = []

    public init(under directory: String) {
        var visited: Set<String> = []
        visit(directory, visited: &visited)
        files.sort()
    }

    private mutating func visit(_ directory: String, visited: inout Set<String>) {
        guard visited.insert(URL(fileURLWithPath: directory).resolvingSymlinksInPath().path).inserted else { return }
        guard let names = Self.entries(of: directory) else {
            unreadable.append(Unreadable(path: directory, reason: String(cString: strerror(errno))))
            return
        }
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                files.append(path)
                continue
            }
            var status = stat()
            if stat(path, &status) != 0 {
                unreadable.append(Unreadable(path: path, reason: String(cString: strerror(errno))))
            } else if status.st_mode & S_IFMT == S_IFDIR {
                visit(path, visited: &visited)
            }
        }
    }

    /// The names in `directory` (without `.` and `..`), sorted; nil with `errno` set when it
    /// cannot be opened.
    private static func entries(of directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
