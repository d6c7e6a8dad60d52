import Foundation
import TestSupport

/// A tmux server of its own running one command: keys go in with `send-keys`, the screen comes
/// out with `capture-pane -p` (issue 16 "Tests").
///
/// Every tmux process is a ``ChildProcess``, awaited with a deadline that kills a stuck one, so
/// these tests share the cooperative pool with every other suite. The server runs in the
/// foreground (`-D`) as our own child, started before any client: a client that found no server
/// would fork one as a daemon holding the client's output open.
final class TmuxSession {
    /// Debian's tmux, when installed.
    static let executable: URL? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .map { URL(fileURLWithPath: $0) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    static var isAvailable: Bool { executable != nil }

    let target = "ui"
    /// The server's socket.
    private let scratch: TemporaryDirectory
    private var socket: String { scratch.path("tmux.sock") }
    private let server: ChildProcess

    /// Starts a server, then `command` in a `width`×`height` window. The shell keeps the pane
    /// open after the command ends and prints its exit status, so a crash is visible in the
    /// capture.
    init(command: [String], width: Int, height: Int, environment: [String: String] = [:]) async throws {
        guard let executable = Self.executable else { throw TmuxError.notInstalled }
        scratch = try TemporaryDirectory()
        server = try await ChildProcess.launch(
            executable, ["-S", scratch.path("tmux.sock"), "-f", "/dev/null", "-D"], environment: Self.environment)
        do {
            // A client that finds no socket would start (and fork) a server of its own.
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: socket) {
                guard !server.outputEnded, Date() < deadline else { throw TmuxError.serverDidNotStart }
                try await Task.sleep(for: .milliseconds(10))
            }
            let exports = environment.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
            let line = command.map(Self.quoted).joined(separator: " ")
            let script = "env \(exports) \(line); echo \"[exit $?]\"; sleep 60"
            try await tmux(["new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)", script])
        } catch {
            await kill()
            throw error
        }
    }

    /// The test process's environment in UTF-8, outside any tmux the tests run under.
    static let environment: [String: String?] = ["LANG": "C.UTF-8", "TMUX": nil]

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs one tmux client command and returns what it printed (only `capture-pane` and
    /// `display-message -p` print).
    @discardableResult
    func tmux(_ arguments: [String], seconds: Double = 10) async throws -> String {
        guard let executable = Self.executable else { throw TmuxError.notInstalled }
        let client = try await ChildProcess.launch(
            executable, ["-S", socket] + arguments, environment: Self.environment)
        let status = try await client.exitStatus(within: seconds)
        guard status == 0 else { throw TmuxError.failed(arguments, status) }
        return String(decoding: client.standardOutput, as: UTF8.self)
    }

    /// Named keys (`PPage`, `End`, `Enter`, `C-c`).
    func press(_ keys: String...) async throws { try await tmux(["send-keys", "-t", target] + keys) }

    /// Literal text, typed as keys.
    func type(_ text: String) async throws { try await tmux(["send-keys", "-t", target, "-l", text]) }

    /// The screen's rows, trailing spaces trimmed by tmux.
    func capture() async throws -> [String] {
        try await tmux(["capture-pane", "-p", "-t", target]).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }

    /// A pane variable (tmux(1) FORMATS), such as `#{pane_pid}` or `#{alternate_on}`.
    func display(_ format: String) async throws -> String {
        try await tmux(["display-message", "-p", "-t", target, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(width: Int, height: Int) async throws {
        try await tmux(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Captures until `condition` holds on two captures in a row that are the same, polling
    /// every 20 ms, for at most `seconds`. A capture can land while curses is still writing a
    /// frame, or after tmux resized the window and before the program redrew it; a settled
    /// screen is the program's whole frame.
    @discardableResult
    func waitFor(
        _ what: String, seconds: Double = 15, _ condition: ([String]) -> Bool
    ) async throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var previous: [String]?
        var screen = try await capture()
        while !(condition(screen) && screen == previous) {
            guard Date() < deadline else { throw TmuxError.timedOut(what, screen.joined(separator: "\n")) }
            try await Task.sleep(for: .milliseconds(20))
            previous = screen
            screen = try await capture()
        }
        return screen
    }

    /// Ends the tmux server (and the command in it), waits for it, and removes the scratch
    /// directory.
    func kill() async {
        if !server.outputEnded {
            _ = try? await tmux(["kill-server"])
            _ = try? await server.exitStatus(within: 10)
        }
        scratch.remove()
    }
}

enum TmuxError: Error, CustomStringConvertible {
    case notInstalled
    case serverDidNotStart
    case failed([String], Int32)
    case timedOut(String, String)

    var description: String {
        switch self {
        case .notInstalled: "tmux is not installed"
        case .serverDidNotStart: "the tmux server did not create its socket"
        case .failed(let arguments, let status): "tmux \(arguments.joined(separator: " ")) exited \(status)"
        case .timedOut(let what, let screen): "timed out waiting for \(what); screen:\n\(screen)"
        }
    }
}
