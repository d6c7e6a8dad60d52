import Foundation

/// The bench's server: this executable re-run as `tandem-bench relay-server` on a loopback
/// port, killed when the bench is done.
final class RelayServerProcess {
    let port: Int
    private let process: Process

    init(dataDirectory: URL, databaseURL: String?) throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            ["relay-server", "--data-directory", dataDirectory.path]
            + (databaseURL.map { ["--database-url", $0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // The first line is `port N`; reading blocks until the server listens (or dies).
        var line: [UInt8] = []
        while line.last != UInt8(ascii: "\n") {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { break }
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("port "), let port = Int(text.dropFirst(5)), port > 0 else {
            process.terminate()
            process.waitUntilExit()
            throw CLIError("relay bench: the server did not start (said \"\(text)\")")
        }
        self.port = port
    }

    /// Resident set size of the server process, from `/proc/PID/status` (`VmRSS`).
    func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        throw CLIError("relay bench: no VmRSS for the server process")
    }

    /// SIGKILL: the bench needs nothing from the server's graceful shutdown, which would
    /// wait on open streams.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
