import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cookie-signing secret kept in `<data-dir>/auth-secret` (0600), created on first start
/// from the CSPRNG so that sessions survive restarts without configuration.
enum ServerSecret {
    static func loadOrCreate(in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("auth-secret")
        if let data = FileManager.default.contents(atPath: url.path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            text.utf8.count >= 32
        {
            return text
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let secret = SessionToken.randomAlphanumeric(count: 64)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw ServerSecretError.cannotWrite(path: url.path) }
        defer { close(fd) }
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
