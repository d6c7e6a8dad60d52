package import Foundation

/// A server child a harness starts — `tandem serve`, `tandem-bench relay-server`,
/// `tandem-simnode` — on a loopback port it picks itself: the one helper every harness starts
/// its servers with (issue 26 item 3). The server announces itself on its first stdout line
/// (each server's own form, which the caller parses); the harness measures it through `/proc`
/// and ends it with SIGKILL (a crash, or nothing to wait for) or SIGTERM.
///
/// Set-up and tear-down block the calling thread (the first line, the reaping): harnesses call
/// them before and after what they measure, never inside it.
package final class ServerProcess {
    /// Where the server's stderr goes.
    package enum Log {
        case discard
        /// Appended to this file, so a failing run can show what the server said.
        case append(URL)
    }

    package let pid: Int32
    /// The server's first stdout line, without its newline.
    package let firstLine: String
    private let process: Process

    /// How the process is scheduled.
    package enum Priority: Sendable {
        case normal
        /// `SCHED_IDLE` (`chrt --idle 0`): it runs only on cores nothing else wants, and every
        /// thread it starts inherits that. (A `nice` value does not reach a Swift process's
        /// worker threads on Linux: libdispatch sets each worker's nice value from its queue's
        /// quality of service.)
        case idle
    }

    /// Starts `executable` (under `chrt --idle 0` for ``Priority/idle``) and waits for its first
    /// stdout line; `name` is what errors call it.
    package init(
        _ name: String, executable: URL, arguments: [String], environment: [String: String] = [:],
        priority: Priority = .normal, log: Log = .discard
    ) throws {
        let process = Process()
        if priority == .idle {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/chrt")
            process.arguments = ["--idle", "0", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        switch log {
        case .discard:
            process.standardError = FileHandle.nullDevice
        case .append(let file):
            if !FileManager.default.fileExists(atPath: file.path) {
                _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: file)
            handle.seekToEndOfFile()
            process.standardError = handle
        }
        do { try process.run() } catch { throw CLIError("\(name): \(executable.path) did not start: \(error)") }
        if case .append = log, let handle = process.standardError as? FileHandle { try? handle.close() }
        self.process = process
        self.pid = process.processIdentifier
        self.firstLine = Self.readLine(output.fileHandleForReading)
    }

    /// Reads up to the first newline; blocks until the server says it listens, or exits.
    private static func readLine(_ handle: FileHandle) -> String {
        var line: [UInt8] = []
        while line.last != UInt8(ascii: "\n") {
            guard let byte = handle.readData(ofLength: 1).first else { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    package var isRunning: Bool { process.isRunning }

    /// SIGKILL and reap: no shutdown hook, flush or checkpoint runs.
    package func kill() {
        if process.isRunning { _ = Foundation.kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    /// SIGTERM (a graceful shutdown) and reap.
    package func terminate() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Resident set size, from `/proc/PID/status` (`VmRSS`).
    package func residentBytes() throws -> Int {
        try ProcessStats.residentBytes(of: pid)
    }

    /// User + system CPU seconds used so far, from `/proc/PID/stat`.
    package func cpuSeconds() throws -> Double {
        try ProcessStats.cpuSeconds(of: pid)
    }

    deinit { kill() }
}

/// What `/proc` says about a process: CPU time, so a sample can report CPU per request apart
/// from wall time (which other processes on a shared machine stretch), and resident memory.
package enum ProcessStats {
    /// The fields of `/proc/PID/stat` from field 3 (state) on; the name before them is in
    /// parentheses and may hold spaces. Nil when the process is gone.
    package static func statFields(_ pid: pid_t) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// utime (field 14) + stime (field 15), in seconds.
    package static func cpuSeconds(of pid: pid_t) throws -> Double {
        // fields[0] is field 3, so utime and stime are fields[11] and [12].
        guard let fields = statFields(pid), fields.count > 12, let user = Double(fields[11]),
            let system = Double(fields[12])
        else { throw CLIError("process \(pid): no CPU times in /proc (is it gone?)") }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    package static func residentBytes(of pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        throw CLIError("process \(pid): no VmRSS in /proc")
    }

    /// A process below `root` whose command name is `name`, searching breadth first.
    package static func descendant(of root: pid_t, named name: String) -> pid_t? {
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
}
