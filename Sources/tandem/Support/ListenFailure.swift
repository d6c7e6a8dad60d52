import Foundation
import NIOCore

/// A server that could not start listening, in plain words with what to do (issue 51 item 8):
/// NIO's `bind(descriptor:ptr:bytes:) … (errno: 98)` never reaches a person.
enum ListenFailure {
    /// One line for `error` when it is a failure to listen on `host`:`port`; nil for other errors.
    static func describe(_ error: any Error, host: String, port: Int) -> CLIError? {
        guard let io = error as? IOError ?? Self.ioError(in: error) else {
            return nil
        }
        switch io.errnoCode {
        case EADDRINUSE:
            return CLIError(
                "port \(port) on \(host) is already in use by another program: stop it, or choose another port with --port N"
            )
        case EACCES:
            return CLIError(
                "not allowed to listen on port \(port): ports below 1024 need root; choose one with --port N")
        case EADDRNOTAVAIL:
            return CLIError("\(host) is not an address of this machine: use --host 127.0.0.1 or one of its own")
        default:
            return CLIError("cannot listen on \(host):\(port): \(String(cString: strerror(io.errnoCode)).lowercased())")
        }
    }

    /// The IOError a wrapping error holds, where a service group wraps it.
    private static func ioError(in error: any Error) -> IOError? {
        Mirror(reflecting: error).children.lazy.compactMap { $0.value as? IOError }.first
    }
}
