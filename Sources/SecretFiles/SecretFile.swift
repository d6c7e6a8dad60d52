public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a secret file could not be written.
public enum SecretFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file exists already; exclusive creation never overwrites.
    case exists(path: String)
    /// The operating system refused (the reason is `strerror`'s or ours).
    case fileSystem(path: String, reason: String)

    public var description: String {
        switch self {
        case .exists(let path): "\(path) already exists"
        case .fileSystem(let path, let reason): "\(path): \(reason)"
        }
    }
}

/// Creates files only their owner can read (0600) in directories only their owner can enter
/// (0700): wallet keys, identity keys and session cookies of a profile.
public enum SecretFile {
    public static func createDirectory(_ url: URL) throws(SecretFileError) {
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .fileSystem(path: url.path, reason: "cannot create the directory")
        }
    }

    /// Writes `contents` to a file that must not exist yet (mode 0600), so two racing writers
    /// cannot both succeed and nothing is ever overwritten.
    ///
    /// The file appears whole or not at all: the contents go to a temporary file first (written
    /// and fsynced), which `link(2)` then names `url`; `link` fails with EEXIST when `url`
    /// exists, which keeps creation exclusive. Opening `url` itself with `O_CREAT|O_EXCL` and
    /// writing after would leave an empty or partial key file when the process is killed in
    /// between, and every later start would fail on it (found while building the crash harness
    /// for the CLI's local stores, issue 14 item 4). A kill now leaves at most a hidden
    /// temporary file beside it.
    public static func createExclusively(_ url: URL, contents: Data) throws(SecretFileError) {
        if FileManager.default.fileExists(atPath: url.path) { throw .exists(path: url.path) }
        let temporary = temporaryURL(for: url)
        try writeNew(temporary, contents: contents)
        defer { unlink(temporary.path) }
        guard link(temporary.path, url.path) == 0 else {
            if errno == EEXIST { throw .exists(path: url.path) }
            throw .fileSystem(path: url.path, reason: String(cString: strerror(errno)))
        }
    }

    /// A hidden name beside `url` that no other writer picks.
    private static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    }

    /// `O_CREAT|O_EXCL`, mode 0600, write and (durably) fsync; the file is removed when any step fails.
    private static func writeNew(_ url: URL, contents: Data, durably: Bool = true) throws(SecretFileError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { throw .exists(path: url.path) }
            throw .fileSystem(path: url.path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        _ = fchmod(fd, 0o600)  // umask can only have removed bits; make the mode exact anyway
        let written = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == contents.count, !durably || fsync(fd) == 0 else {
            unlink(url.path)
            throw .fileSystem(path: url.path, reason: "cannot write the file")
        }
    }

    /// Replaces a secret file atomically: write a 0600 temporary file, then rename over.
    /// `durably: false` skips the fsync, for files whose loss costs only a re-read (cursors).
    public static func replace(_ url: URL, contents: Data, durably: Bool = true) throws(SecretFileError) {
        let temporary = temporaryURL(for: url)
        try writeNew(temporary, contents: contents, durably: durably)
        guard rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw .fileSystem(path: url.path, reason: String(cString: strerror(errno)))
        }
    }
}
