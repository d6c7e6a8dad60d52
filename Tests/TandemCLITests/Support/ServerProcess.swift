import Foundation
import TestSupport

/// A real `tandem serve` on a free loopback port with a temporary data directory. The port is
/// read from the server's `listening on …` line, so nothing waits on a timer.
final class ServerProcess {
    let process = Process()
    let dataDirectory: TemporaryDirectory
    private let output = Pipe()
    private(set) var baseURL = ""

    init(dataDirectory: TemporaryDirectory? = nil, extraArguments: [String] = []) throws {
        self.dataDirectory = try dataDirectory ?? TemporaryDirectory()
        process.executableURL = TandemProcess.binary
        process.arguments =
            ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", self.dataDirectory.url.path] + extraArguments
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
    }

    /// SIGTERM, then the exit status (0 after a graceful shutdown).
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        dataDirectory.remove()
        return process.terminationStatus
    }
}

enum ServerProcessError: Error {
    case exitedBeforeListening
    case unexpectedOutput(String)
}
