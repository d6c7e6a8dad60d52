import Foundation
import Synchronization
import TestSupport

/// A real `tandem serve` on a loopback port with a temporary data directory. The port is read
/// from the server's `listening on …` line, so nothing waits on a timer.
final class ServerProcess {
    let process = Process()
    let dataDirectory: TemporaryDirectory
    private let output = Pipe()
    private(set) var baseURL = ""
    /// The port the server bound (a restart on the same data can ask for it again).
    private(set) var port = 0
    /// The exit, for async tests that must not block a thread waiting for it.
    let exit: ProcessExit

    /// `port` 0 takes any free port; `databaseURL` serves from PostgreSQL instead of the
    /// SQLite file in `dataDirectory`. Reads the `listening on …` line with a blocking read: async
    /// tests use ``start(dataDirectory:port:databaseURL:extraArguments:)``.
    convenience init(
        dataDirectory: TemporaryDirectory? = nil, port: Int = 0, databaseURL: String? = nil,
        extraArguments: [String] = []
    ) throws {
        try self.init(
            launching: dataDirectory, port: port, databaseURL: databaseURL, extraArguments: extraArguments)
        var buffer = Data()
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        try listening(buffer, requested: port)
    }

    /// The same server, its `listening on …` line awaited without blocking a thread.
    static func start(
        dataDirectory: TemporaryDirectory? = nil, port: Int = 0, databaseURL: String? = nil,
        extraArguments: [String] = []
    ) async throws -> ServerProcess {
        let server = try ServerProcess(
            launching: dataDirectory, port: port, databaseURL: databaseURL, extraArguments: extraArguments)
        let handle = server.output.fileHandleForReading
        let collected = FirstLine()
        let buffer = await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
            handle.readabilityHandler = { handle in
                let chunk = handle.availableData
                let finished = collected.state.withLock { state -> Data? in
                    guard !state.done else { return nil }
                    state.buffer.append(chunk)
                    guard chunk.isEmpty || state.buffer.contains(UInt8(ascii: "\n")) else { return nil }
                    state.done = true
                    return state.buffer
                }
                if let finished {
                    handle.readabilityHandler = nil
                    continuation.resume(returning: finished)
                }
            }
        }
        try server.listening(buffer, requested: port)
        return server
    }

    private init(
        launching dataDirectory: TemporaryDirectory?, port: Int, databaseURL: String?, extraArguments: [String]
    ) throws {
        self.dataDirectory = try dataDirectory ?? TemporaryDirectory()
        process.executableURL = TandemProcess.binary
        process.arguments =
            ["serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", self.dataDirectory.url.path]
            + (databaseURL.map { ["--database-url", $0] } ?? []) + extraArguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        exit = ProcessExit(watching: process)
        try process.run()
    }

    /// Takes the URL and port from the server's first output line.
    private func listening(_ buffer: Data, requested port: Int) throws {
        guard buffer.contains(UInt8(ascii: "\n")) else { throw ServerProcessError.exitedBeforeListening }
        let line = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard line.hasPrefix("listening on ") else { throw ServerProcessError.unexpectedOutput(line) }
        baseURL = String(line.dropFirst("listening on ".count))
        self.port = URLComponents(string: baseURL)?.port ?? port
    }

    /// SIGTERM, then the exit status (0 after a graceful shutdown).
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        dataDirectory.remove()
        return process.terminationStatus
    }

    /// SIGKILL: no shutdown path runs. The data directory stays for a restart.
    func kill() {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGKILL, awaited without blocking a thread (``ProcessExit``). The data directory stays.
    func killed() async {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        _ = await exit.status()
    }

    /// SIGTERM, then the exit status awaited without blocking a thread; the data directory goes.
    func stopped() async -> Int32 {
        process.terminate()
        let status = await exit.status()
        dataDirectory.remove()
        return status
    }
}

/// Output gathered until the first line (or EOF) by a readability handler.
private final class FirstLine: Sendable {
    let state = Mutex((buffer: Data(), done: false))
}

enum ServerProcessError: Error {
    case exitedBeforeListening
    case unexpectedOutput(String)
}
