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
            if let found = Self.descendant(of: process.processIdentifier, named: "tandem") {
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
        guard let fields = Self.statFields(clientPID), fields.count > 12, let user = Double(fields[11]),
            let system = Double(fields[12])
        else { throw CLIError("stream-idle bench: the client process \(clientPID) is gone") }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
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

    /// The fields of `/proc/PID/stat` from field 3 (state) on; the name before them is in
    /// parentheses and may hold spaces.
    static func statFields(_ pid: pid_t) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// A process below `root` whose command name is `name`, searching breadth first.
    static func descendant(of root: pid_t, named name: String) -> pid_t? {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
        var parents: [pid_t: pid_t] = [:]
        for pid in pids {
            if let parent = statFields(pid)?.dropFirst().first.flatMap({ pid_t($0) }) { parents[pid] = parent }
        }
        var frontier = [root]
        while !frontier.isEmpty {
            let children = parents.filter { frontier.contains($0.value) }.map(\.key)
            for child in children {
                let command = (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? ""
                if command.trimmingCharacters(in: .whitespacesAndNewlines) == name { return child }
            }
            frontier = children
        }
        return nil
    }

    deinit { if process.isRunning { stop() } }
}
