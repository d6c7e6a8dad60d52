public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's own files (issue 13 item 5): the data directory is 0700, the SQLite database
/// with its WAL and SHM files and the cookie secret are 0600, since they hold password and
/// token hashes and the key that signs every session cookie.
///
/// SQLite's unix VFS creates a database with 0644 (less the umask) and gives the `-wal` and
/// `-shm` files the mode of the database file, so the database file is created 0600 before
/// SQLite opens it, and existing files are narrowed to 0600 on every start.
public enum ServerFiles {
    /// Creates `directory` (and missing parents) 0700. An existing directory keeps its mode:
    /// it may be one the operator shares on purpose (`--data-dir .`); the files are 0600.
    public static func prepareDirectory(_ directory: URL) throws {
        guard access(directory.path, F_OK) != 0 else { return }
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard chmod(directory.path, 0o700) == 0 else { throw ServerFilesError.cannotSecure(path: directory.path) }
    }

    /// Creates the database file 0600 if missing and narrows it and its `-wal` / `-shm`
    /// companions to 0600.
    static func prepareDatabaseFile(_ file: URL) throws {
        try prepareDirectory(file.deletingLastPathComponent())
        let fd = open(file.path, O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else { throw ServerFilesError.cannotSecure(path: file.path) }
        close(fd)
        try narrowDatabaseFiles(file)
    }

    /// `chmod 0600` on the database and whichever of its companions exist.
    static func narrowDatabaseFiles(_ file: URL) throws {
        for path in [file.path, file.path + "-wal", file.path + "-shm"] where access(path, F_OK) == 0 {
            guard chmod(path, 0o600) == 0 else { throw ServerFilesError.cannotSecure(path: path) }
        }
    }

    /// Refuses a secret file that group or others may read or write: the server does not
    /// start on a key that may already be known (an operator fixes it with `chmod 600`).
    public static func checkPrivate(_ file: URL) throws {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return }
        let mode = info.st_mode & 0o777
        if mode & 0o077 != 0 { throw ServerFilesError.exposed(path: file.path, mode: mode) }
    }
}

/// Why the server's files could not be made private.
public enum ServerFilesError: Error, Equatable, CustomStringConvertible {
    case cannotSecure(path: String)
    case exposed(path: String, mode: mode_t)

    public var description: String {
        switch self {
        case .cannotSecure(let path): "cannot make \(path) private to its owner"
        case .exposed(let path, let mode):
            "\(path) is readable or writable by group or others (mode \(String(mode, radix: 8))); "
                + "run `chmod 600 \(path)` and keep the old secret out of use"
        }
    }
}
