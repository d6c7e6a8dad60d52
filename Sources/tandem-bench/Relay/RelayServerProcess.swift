import Foundation

/// The bench's server: this executable re-run as `tandem-bench relay-server` on a loopback
/// port, killed when the bench is done.
final class RelayServerProcess {
    let port: Int
    private let process: Process

    /// `executable` is another `tandem-bench` binary (a baseline build) or, when nil, this one;
    /// `minimal` starts this binary's bare Hummingbird application (`relay-minimal-server`)
    /// instead of Tandem's server.
    init(dataDirectory: URL, databaseURL: String?, executable: String? = nil, minimal: Bool = false) throws {
        let executable = try executable ?? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            minimal
            ? ["relay-minimal-server"]
            : ["relay-server", "--data-directory", dataDirectory.path]
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

    /// User + system CPU time the server has used, from `/proc/PID/stat` (fields 14 and 15, in
    /// clock ticks), so a sample can report CPU per request apart from wall time, which other
    /// processes on a shared machine stretch.
    func cpuSeconds() throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        // The command name (field 2) is in parentheses and may hold spaces: count after it.
        guard let close = stat.lastIndex(of: ")") else { throw CLIError("relay bench: unreadable /proc stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so utime (14) and stime (15) are fields[11] and [12].
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw CLIError("relay bench: no CPU times in /proc stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// SIGKILL: the bench needs nothing from the server's graceful shutdown, which would
    /// wait on open streams.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
