import BenchSupport
import Foundation

/// A TCP socket connected to 127.0.0.1, for the bench's own HTTP clients (the relay load and the
/// crash harness), which keep Foundation's networking off the path they measure.
enum LoopbackSocket {
    /// The call that failed and its errno.
    struct Failure: Error {
        let message: String
    }

    /// Opens a socket, lets `configure` set its options (timeouts, TCP_NODELAY), then connects
    /// to 127.0.0.1:`port`. The caller owns the descriptor.
    static func connected(port: Int, configure: (Int32) -> Void = { _ in }) throws(Failure) -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(message: "socket() failed, errno \(errno)") }
        configure(descriptor)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            _ = close(descriptor)
            throw Failure(message: "connect to 127.0.0.1:\(port) failed, errno \(code)")
        }
        return descriptor
    }
}
