import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates files only their owner can read (0600) in directories only their owner can enter (0700).
enum SecretFile {
    static func createDirectory(_ url: URL) throws(ProfileError) {
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .fileSystem(path: url.path, reason: "cannot create the directory")
        }
    }

    /// Writes `contents` to a file that must not exist yet (`O_CREAT|O_EXCL`, mode 0600), so two
    /// racing writers cannot both succeed and nothing is ever overwritten.
    static func createExclusively(
        _ url: URL, contents: Data, exists: () -> ProfileError
    ) throws(ProfileError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { throw exists() }
            throw .fileSystem(path: url.path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        _ = fchmod(fd, 0o600)  // umask can only have removed bits; make the mode exact anyway
        let written = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == contents.count, fsync(fd) == 0 else {
            unlink(url.path)
            throw .fileSystem(path: url.path, reason: "cannot write the file")
        }
    }

    /// Replaces a secret file atomically: write a 0600 temporary file, then rename over.
    static func replace(_ url: URL, contents: Data) throws(ProfileError) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        try createExclusively(temporary, contents: contents) {
            ProfileError.fileSystem(path: temporary.path, reason: "temporary file exists")
        }
        guard rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw .fileSystem(path: url.path, reason: String(cString: strerror(errno)))
        }
    }
}
