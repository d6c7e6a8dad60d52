import Foundation
import TandemServerStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cookie-signing secret kept in `<data-dir>/auth-secret` (0600), created on first start
/// from the CSPRNG so that sessions survive restarts without configuration. An existing file
/// that group or others can read stops the start (`ServerFiles.checkPrivate`, issue 13).
enum ServerSecret {
    static func loadOrCreate(in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("auth-secret")
        try ServerFiles.checkPrivate(url)
        if let data = FileManager.default.contents(atPath: url.path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            text.utf8.count >= 32
        {
            return text
        }
        try ServerFiles.prepareDirectory(directory)
        let secret = SessionToken.randomAlphanumeric(count: 64)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw ServerSecretError.cannotWrite(path: url.path) }
        defer { close(fd) }
        _ = fchmod(fd, 0o600)
        let bytes = Array((secret + "\n").utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw ServerSecretError.cannotWrite(path: url.path) }
        return secret
    }
}

/// Why the server secret could not be kept.
enum ServerSecretError: Error, CustomStringConvertible {
    case cannotWrite(path: String)

    var description: String {
        switch self {
        case .cannotWrite(let path): "cannot write the server secret to \(path)"
        }
    }
}
