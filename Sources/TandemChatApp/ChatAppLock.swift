public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `tandem app` per profile at a time (issue 47 item 1): an advisory lock (`flock`) on
/// `app.lock` in the profile, which also holds the port the running app listens on. The kernel
/// releases it when the process ends, however it ends.
public final class ChatAppLock: Sendable {
    /// Why the lock was not taken.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Another `tandem app` serves the profile, on this port (nil while it starts).
        case held(port: Int?)
        case unusable(path: String, reason: String)

        public var description: String {
            switch self {
            case .held(let port?):
                "tandem app already serves this profile at http://127.0.0.1:\(port)/ (stop it first)"
            case .held(nil): "tandem app is starting for this profile in another process"
            case .unusable(let path, let reason): "\(path): \(reason)"
            }
        }
    }

    private let descriptor: Int32
    public let path: String

    /// Takes the lock of the profile at `directory`, or fails at once if another process holds it.
    public init(profileDirectory directory: URL) throws(Failure) {
        path = directory.appendingPathComponent("app.lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unusable(path: path, reason: String(cString: strerror(errno))) }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let held = errno == EWOULDBLOCK
            let port = Self.port(in: descriptor)
            close(descriptor)
            if held { throw .held(port: port) }
            throw .unusable(path: path, reason: "cannot lock it")
        }
        self.descriptor = descriptor
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        close(descriptor)
    }

    /// Writes the port the app listens on, for a second `tandem app` to name.
    public func record(port: Int) {
        let text = Array("\(port)\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    private static func port(in descriptor: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int(
            String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
