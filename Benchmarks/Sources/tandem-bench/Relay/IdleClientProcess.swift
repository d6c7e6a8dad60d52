import BenchSupport
import Foundation

/// A `tandem` client process the stream-idle bench watches: `chat listen` as a plain child, or
/// `chat ui` inside util-linux `script`, which gives it the terminal it requires (issue 16).
final class IdleClientProcess {
    private let process: Process
    /// Held open: `script` ends when its standard input does.
    private let input = Pipe()
    /// The `tandem` process itself (for `chat ui`, a descendant of `script`).
    private(set) var clientPID: pid_t = 0

    init(tandem: String, arguments: [String], terminal: Bool) throws {
        process = Process()
        if terminal {
            let line = ([tandem] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
                .joined(separator: " ")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-q", "-f", "-e", "-c", "stty cols 80 rows 24; exec \(line)", "/dev/null"]
            var environment = ProcessInfo.processInfo.environment
            environment["TERM"] = "xterm-256color"
            environment["NO_COLOR"] = "1"
            process.environment = environment
        } else {
            process.executableURL = URL(fileURLWithPath: tandem)
            process.arguments = arguments
        }
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        clientPID = process.processIdentifier
        guard terminal else { return }
        // `script` forks a shell that execs `tandem`: find it among the descendants.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let found = ProcessStats.descendant(of: process.processIdentifier, named: "tandem") {
                clientPID = found
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw CLIError("stream-idle bench: `chat ui` did not start under script")
    }

    /// User + system CPU seconds of the client, from `/proc/PID/stat` (fields 14 and 15).
    func cpuSeconds() throws -> Double {
        do { return try ProcessStats.cpuSeconds(of: clientPID) } catch {
            throw CLIError("stream-idle bench: the client process \(clientPID) is gone")
        }
    }

    /// SIGTERM to the client (the UI restores its terminal and exits), then its parent.
    func stop() {
        if clientPID > 0 { kill(clientPID, SIGTERM) }
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { stop() } }
}
