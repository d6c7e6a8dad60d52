import Foundation
import TestSupport

/// A detached tmux session on a private socket running one command: keys go in with
/// `send-keys`, the screen comes out with `capture-pane -p` (issue 16 "Tests").
final class TmuxSession {
    /// Debian's tmux, when installed.
    static let executable: URL? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .map { URL(fileURLWithPath: $0) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    static var isAvailable: Bool { executable != nil }

    /// The tmux tests run when tmux is installed and `TANDEM_TMUX_TESTS=1`: `Process.waitUntilExit`
    /// on the tmux client was seen to hang in the full parallel suite, blocking one of the
    /// cooperative pool's two threads and starving every other test (issue 16, left open).
    static var isEnabled: Bool { isAvailable && ProcessInfo.processInfo.environment["TANDEM_TMUX_TESTS"] == "1" }

    let socket = "tandem-ui-\(UUID().uuidString.prefix(8))"
    let target = "ui"

    /// Starts `command` in a `width`×`height` window. The shell keeps the pane open after the
    /// command ends and prints its exit status, so a crash is visible in the capture.
    init(command: [String], width: Int, height: Int, environment: [String: String] = [:]) throws {
        let exports = environment.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
        let line = command.map(Self.quoted).joined(separator: " ")
        let script = "env \(exports) \(line); echo \"[exit $?]\"; sleep 60"
        try tmux(["-f", "/dev/null", "new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)", script])
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw TmuxError.notInstalled }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-L", socket] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment.removeValue(forKey: "TMUX")
        process.environment = environment
        // Only `capture-pane` output is read: the server that `new-session` forks would inherit
        // a pipe and hold it open, so a read to end of file would never return.
        let output = arguments.first == "capture-pane" ? Pipe() : nil
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TmuxError.failed(arguments, process.terminationStatus) }
        return String(decoding: data, as: UTF8.self)
    }

    /// Named keys (`PPage`, `End`, `Enter`, `C-c`).
    func press(_ keys: String...) throws { try tmux(["send-keys", "-t", target] + keys) }

    /// Literal text, typed as keys.
    func type(_ text: String) throws { try tmux(["send-keys", "-t", target, "-l", text]) }

    /// The screen's rows, trailing spaces trimmed by tmux.
    func capture() throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", target]).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Captures until `condition` holds, polling every 20 ms, for at most `seconds`.
    @discardableResult
    func waitFor(
        _ what: String, seconds: Double = 15, _ condition: ([String]) -> Bool
    ) async throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var screen = try capture()
        while !condition(screen) {
            guard Date() < deadline else { throw TmuxError.timedOut(what, screen.joined(separator: "\n")) }
            try await Task.sleep(for: .milliseconds(20))
            screen = try capture()
        }
        return screen
    }

    func kill() { _ = try? tmux(["kill-server"]) }
}

enum TmuxError: Error, CustomStringConvertible {
    case notInstalled
    case failed([String], Int32)
    case timedOut(String, String)

    var description: String {
        switch self {
        case .notInstalled: "tmux is not installed"
        case .failed(let arguments, let status): "tmux \(arguments.joined(separator: " ")) exited \(status)"
        case .timedOut(let what, let screen): "timed out waiting for \(what); screen:\n\(screen)"
        }
    }
}
