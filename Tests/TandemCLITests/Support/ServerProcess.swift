import Foundation
import TestSupport

/// A real `tandem serve` on a loopback port with a temporary data directory. The port is read
/// from the server's `listening on …` line, so nothing waits on a timer.
///
/// The server's standard output goes to a file, not a pipe: the line is polled for, which an
/// async test can do with `Task.sleep` (``start(dataDirectory:port:databaseURL:extraArguments:)``)
/// and a full pipe can never stall a chatty server. Async tests stop it with ``shutDown()``,
/// which waits through ``ProcessExit`` instead of parking a cooperative thread (issue 16).
final class ServerProcess {
    let process: Process
    let dataDirectory: TemporaryDirectory
    /// Resumes async waiters when the server exits.
    let exit: ProcessExit
    private let scratch: TemporaryDirectory
    private var outputURL: URL { scratch.url.appendingPathComponent("stdout") }
    private(set) var baseURL = ""
    /// The port the server bound (a restart on the same data can ask for it again).
    private(set) var port = 0

    /// How long a server may take to print its `listening on` line.
    static let startDeadline: Double = 60

    /// `port` 0 takes any free port; `databaseURL` serves from PostgreSQL instead of the
    /// SQLite file in `dataDirectory`. Blocks the calling thread until the server listens.
    convenience init(
        dataDirectory: TemporaryDirectory? = nil, port: Int = 0, databaseURL: String? = nil,
        extraArguments: [String] = []
    ) throws {
        try self.init(
            launching: dataDirectory, port: port, databaseURL: databaseURL, extraArguments: extraArguments)
        let deadline = Date().addingTimeInterval(Self.startDeadline)
        while try !adoptListeningLine(deadline: deadline) { Thread.sleep(forTimeInterval: 0.005) }
    }

    /// The same server for async tests: polls for the `listening on` line without blocking.
    static func start(
        dataDirectory: TemporaryDirectory? = nil, port: Int = 0, databaseURL: String? = nil,
        extraArguments: [String] = []
    ) async throws -> ServerProcess {
        let server = try ServerProcess(
            launching: dataDirectory, port: port, databaseURL: databaseURL, extraArguments: extraArguments)
        let deadline = Date().addingTimeInterval(startDeadline)
        do {
            while try !server.adoptListeningLine(deadline: deadline) { try await Task.sleep(for: .milliseconds(5)) }
        } catch {
            _ = await server.shutDown()
            throw error
        }
        return server
    }

    private init(
        launching dataDirectory: TemporaryDirectory?, port: Int, databaseURL: String?, extraArguments: [String]
    ) throws {
        self.dataDirectory = try dataDirectory ?? TemporaryDirectory()
        scratch = try TemporaryDirectory()
        let process = Process()
        self.process = process
        exit = ProcessExit(watching: process)
        process.executableURL = TandemProcess.binary
        process.arguments =
            ["serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", self.dataDirectory.url.path]
            + (databaseURL.map { ["--database-url", $0] } ?? []) + extraArguments
        _ = FileManager.default.createFile(atPath: scratch.url.appendingPathComponent("stdout").path, contents: nil)
        let output = try FileHandle(forWritingTo: scratch.url.appendingPathComponent("stdout"))
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Reads the first line of the server's output once it is complete: `true` when the server
    /// listens, `false` while it is still starting; throws when it exited or took too long.
    private func adoptListeningLine(deadline: Date) throws -> Bool {
        let exited = exit.hasExited
        let output = (try? Data(contentsOf: outputURL)) ?? Data()
        if let newline = output.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: output[..<newline], as: UTF8.self)
            guard line.hasPrefix("listening on ") else { throw ServerProcessError.unexpectedOutput(line) }
            baseURL = String(line.dropFirst("listening on ".count))
            port = URLComponents(string: baseURL)?.port ?? port
            return true
        }
        if exited { throw ServerProcessError.exitedBeforeListening }
        guard Date() < deadline else {
            _ = Foundation.kill(process.processIdentifier, SIGKILL)
            throw ServerProcessError.notListeningInTime
        }
        return false
    }

    /// SIGTERM, then the exit status (0 after a graceful shutdown).
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        dataDirectory.remove()
        scratch.remove()
        return process.terminationStatus
    }

    /// SIGTERM, then the exit status, awaited without blocking a thread; a server that has not
    /// ended after 30 s is SIGKILLed (status -1).
    func shutDown() async -> Int32 {
        if !exit.hasExited { process.terminate() }
        let status = (try? await exit.status(within: 30, killing: process.processIdentifier)) ?? -1
        dataDirectory.remove()
        scratch.remove()
        return status
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
        scratch.remove()
        return status
    }
}

enum ServerProcessError: Error {
    case exitedBeforeListening
    case unexpectedOutput(String)
    case notListeningInTime
}
