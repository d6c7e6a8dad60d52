import Foundation

/// A real `tandem serve` child on a loopback port, started on the harness's data directory
/// (and database) and ended with SIGKILL: the crash under test (issue 14 item 4).
///
/// The harness runs synchronously on its own threads, outside Swift concurrency, so the
/// blocking reads and `waitUntilExit` here never hold a cooperative thread.
final class CrashServer {
    let port: Int
    let pid: Int32
    private let process: Process

    /// Starts the server and waits for its `listening on http://HOST:PORT` line. Stderr is
    /// appended to `log`, so a failing run can show what the server said.
    init(tandem: URL, dataDirectory: URL, databaseURL: String?, log: URL) throws {
        let process = Process()
        process.executableURL = tandem
        process.arguments =
            ["serve", "--port", "0", "--data-dir", dataDirectory.path, "--no-rate-limit"]
            + (databaseURL.map { ["--database-url", $0] } ?? [])
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_LEVEL"] = "warning"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let logHandle = try FileHandle(forWritingTo: log)
        logHandle.seekToEndOfFile()
        process.standardError = logHandle
        try process.run()
        try? logHandle.close()
        self.process = process
        self.pid = process.processIdentifier
        let line = Self.readLine(output.fileHandleForReading)
        guard line.hasPrefix("listening on http://"), let colon = line.lastIndex(of: ":"),
            let port = Int(line[line.index(after: colon)...]), port > 0
        else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw CLIError("crash: tandem serve did not start (stdout said \"\(line)\"; log: \(log.path))")
        }
        self.port = port
    }

    /// The first stdout line; reading blocks until the server listens or exits.
    private static func readLine(_ handle: FileHandle) -> String {
        var line: [UInt8] = []
        while line.last != UInt8(ascii: "\n") {
            guard let byte = handle.readData(ofLength: 1).first else { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var isRunning: Bool { process.isRunning }

    /// SIGKILL and reap: no shutdown hook, no flush, no checkpoint runs.
    func sigkill() {
        if process.isRunning { _ = kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { sigkill() }
}
