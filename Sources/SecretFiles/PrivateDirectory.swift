public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory only its owner may enter, holding files only their owner may read (issue 50 item 9):
/// a profile's keys, cookies, histories and cursors.
public enum PrivateDirectory {
    /// What ``restrict(_:)`` changed: the directory's mode when it was looser than 0700, and the
    /// names of the files that group or others could read or write (now 0600).
    public struct Repair: Sendable, Equatable {
        public var directoryMode: UInt16?
        public var files: [String]

        public var isEmpty: Bool { directoryMode == nil && files.isEmpty }
    }

    /// Creates `url` (0700) when missing; otherwise takes group and other access away from it and
    /// from every regular file directly in it. Symbolic links are not followed.
    @discardableResult
    public static func restrict(_ url: URL) throws(SecretFileError) -> Repair {
        var status = stat()
        guard lstat(url.path, &status) == 0 else {
            guard errno == ENOENT else {
                throw .fileSystem(path: url.path, reason: String(cString: strerror(errno)))
            }
            try SecretFile.createDirectory(url)
            return Repair(directoryMode: nil, files: [])
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .fileSystem(path: url.path, reason: "not a directory")
        }
        var repair = Repair(directoryMode: nil, files: [])
        let mode = UInt16(status.st_mode & 0o7777)
        if mode & 0o077 != 0 {
            guard chmod(url.path, 0o700) == 0 else {
                throw .fileSystem(path: url.path, reason: "cannot make it 0700: \(String(cString: strerror(errno)))")
            }
            repair.directoryMode = mode
        }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: url.path) } catch {
            throw .fileSystem(path: url.path, reason: "cannot list the directory")
        }
        for name in names.sorted() {
            let path = url.appendingPathComponent(name).path
            var file = stat()
            guard lstat(path, &file) == 0, file.st_mode & S_IFMT == S_IFREG, file.st_mode & 0o077 != 0 else { continue }
            guard chmod(path, 0o600) == 0 else {
                throw .fileSystem(path: path, reason: "cannot make it 0600: \(String(cString: strerror(errno)))")
            }
            repair.files.append(name)
        }
        return repair
    }

    /// Creates an empty file only its owner can read when `url` does not exist, so a database
    /// opened on it (and SQLite's journal files, which take its mode) is never readable by others.
    public static func createFileIfMissing(_ url: URL) throws(SecretFileError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return }
            throw .fileSystem(path: url.path, reason: String(cString: strerror(errno)))
        }
        _ = fchmod(fd, 0o600)
        close(fd)
    }
}
