import Foundation
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

    /// `port` 0 takes any free port; `databaseURL` serves from PostgreSQL instead of the
    /// SQLite file in `dataDirectory`.
    init(
        dataDirectory: TemporaryDirectory? = nil, port: Int = 0, databaseURL: String? = nil,
        extraArguments: [String] = []
    ) throws {
        self.dataDirectory = try dataDirectory ?? TemporaryDirectory()
        process.executableURL = TandemProcess.binary
        process.arguments =
            ["serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", self.dataDirectory.url.path]
            + (databaseURL.map { ["--database-url", $0] } ?? []) + extraArguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var buffer = Data()
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw ServerProcessError.exitedBeforeListening }
            buffer.append(chunk)
        }
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
}

enum ServerProcessError: Error {
    case exitedBeforeListening
    case unexpectedOutput(String)
}
