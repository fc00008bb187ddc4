import Foundation
import StageWorld

/// A place that cannot be written, with the operating system's reason.
struct OutputError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    init(path: String, errorNumber: Int32) {
        self.path = path
        self.reason = String(cString: strerror(errorNumber))
    }

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    var description: String { "cannot write \(path): \(reason)" }
}

/// Output files and directories: checked before the work starts, written whole, and with errors
/// that name the path and the reason (never a raw `NSError`).
enum FileOutput {
    /// Creates `directory` and its missing parents, and checks that a file can be created in it.
    static func prepareDirectory(_ directory: String) throws(OutputError) {
        try makeDirectories(directory)
        try checkFile((directory as NSString).appendingPathComponent(".stagesim-write-check-\(getpid())"))
    }

    /// Checks that a file can be written at `path`, creating its missing parent directories. An
    /// existing file is left as it is; a file this check had to create is removed again.
    static func checkFile(_ path: String) throws(OutputError) {
        try makeDirectories(parent(of: path))
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if created >= 0 {
            close(created)
            unlink(path)
            return
        }
        guard errno == EEXIST else { throw OutputError(path: path, errorNumber: errno) }
        let existing = open(path, O_WRONLY | O_CLOEXEC)
        guard existing >= 0 else { throw OutputError(path: path, errorNumber: errno) }
        close(existing)
    }

    /// Writes `text` to `path` through a hidden temporary file beside it, flushed to disk and
    /// renamed over `path`: neither a reader nor a kill ever sees half a file.
    static func writeWhole(_ text: String, to path: String) throws(OutputError) {
        try writeWhole(Array(text.utf8), to: path)
    }

    /// Writes `bytes` whole, the same way.
    static func writeWhole(_ bytes: [UInt8], to path: String) throws(OutputError) {
        let temporary = temporaryPath(for: path)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(path: path, errorNumber: errno) }
        let failure = writeAll(bytes, to: descriptor)
        let closed = close(descriptor) == 0 ? 0 : errno
        let problem = failure != 0 ? failure : closed != 0 ? closed : (rename(temporary, path) == 0 ? 0 : errno)
        guard problem == 0 else {
            unlink(temporary)
            throw OutputError(path: path, errorNumber: problem)
        }
    }

    /// The hidden temporary file `path` is written through, beside it.
    static func temporaryPath(for path: String) -> String {
        (parent(of: path) as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid()).tmp")
    }

    /// Writes every byte and, when `syncing`, flushes it to disk; returns 0, or the first `errno`.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, syncing: Bool = true) -> Int32 {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return written < 0 ? errno : EIO }
                offset += written
            }
            return !syncing || fsync(descriptor) == 0 ? 0 : errno
        }
    }

    /// `mkdir -p`: creates each missing directory of `directory`.
    static func makeDirectories(_ directory: String) throws(OutputError) {
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw OutputError(path: prefix, errorNumber: errno) }
        }
        var isDirectory: ObjCBool = false
        let target = directory.isEmpty ? "." : directory
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw OutputError(path: target, reason: "it is not a directory")
        }
    }

    private static func parent(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }
}

/// A trace file written as the run goes (`stagesim run --trace`): lines are buffered into its
/// hidden temporary file, which `finish` flushes to disk and renames over the target, as
/// `FileOutput.writeWhole` does; nothing of the run is held beyond the buffer.
final class StreamedTraceFile: TraceSink, @unchecked Sendable {
    private let path: String
    private let temporary: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    /// The first `errno` met, reported by `finish`.
    private var failure: Int32 = 0
    private static let bufferBytes = 1 << 16

    /// Opens the temporary file beside `path` (a single-threaded run writes it).
    init(path: String) throws(OutputError) {
        self.path = path
        self.temporary = FileOutput.temporaryPath(for: path)
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(path: path, errorNumber: errno) }
        buffer.reserveCapacity(Self.bufferBytes)
    }

    func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        if buffer.count >= Self.bufferBytes { flushBuffer(syncing: false) }
    }

    /// Writes what is buffered, flushes the file to disk and renames it over the target.
    func finish() throws(OutputError) {
        flushBuffer(syncing: true)
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        descriptor = -1
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw OutputError(path: path, errorNumber: failure)
        }
    }

    private func flushBuffer(syncing: Bool) {
        guard failure == 0 else { return }
        if !buffer.isEmpty || syncing {
            failure = FileOutput.writeAll(buffer, to: descriptor, syncing: syncing)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        guard descriptor >= 0 else { return }
        close(descriptor)
        unlink(temporary)
    }
}
