import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Passwords for account commands (issue 13): from standard input with `--password-stdin`, or
/// typed at a terminal prompt that does not echo. Never from the command line, where other
/// users could read them in the process list.
enum SecretPrompt {
    /// `count` passwords, one per line of standard input.
    static func linesFromStandardInput(_ count: Int) throws -> [String] {
        let text = try CommandIO.readStandardInputText()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        guard lines.count >= count, lines.prefix(count).allSatisfy({ !$0.isEmpty }) else {
            throw CLIError("--password-stdin: expected \(count) non-empty line(s) on standard input")
        }
        return Array(lines.prefix(count))
    }

    /// Whether a person can be asked: standard input is a terminal.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Asks for one secret on the terminal with echo turned off (restored afterwards).
    static func ask(_ prompt: String) throws -> String {
        guard isInteractive else {
            throw CLIError("standard input is not a terminal: pass the password with --password-stdin")
        }
        return try askSecret(prompt)
    }

    /// A line typed at the terminal with echo off; empty input is refused.
    static func askSecret(_ prompt: String) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let canHide = tcgetattr(STDIN_FILENO, &saved) == 0
        if canHide {
            var hidden = saved
            hidden.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden)
        }
        defer {
            if canHide { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw CLIError("nothing entered") }
        return line
    }

    /// A plain (echoed) confirmation line from the terminal.
    static func confirm(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        return readLine(strippingNewline: true)
    }
}
