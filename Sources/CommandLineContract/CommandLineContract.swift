public import ArgumentParser
import Foundation

/// The error contract every Tandem executable keeps (README "bad input exits with status 1 and
/// one line on stderr"): `--help` and `--version` print as ArgumentParser does and exit 0; an
/// `ExitCode` ends with its status; anything else is one line `<program>: <message>` and status 1.
///
/// Shared by `tandem` and `tandem-bench` so the two binaries answer bad input the same way.
public enum CommandLineContract {
    /// Parses the arguments for `Root`, runs the command and applies the contract to its errors.
    /// `describe` gives an executable's own error type its message; other errors are reduced to
    /// the first line of ArgumentParser's message. `willRun` sees the parsed command before it
    /// runs; `didRun` is told whether it succeeded, before the process exits.
    public static func main<Root: ParsableCommand>(
        _ root: Root.Type, program: String, describe: @Sendable (any Error) -> String?,
        willRun: (any ParsableCommand) -> Void = { _ in }, didRun: (_ succeeded: Bool) -> Void = { _ in }
    ) async {
        do {
            var command = try root.parseAsRoot()
            willRun(command)
            do {
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            } catch {
                didRun(false)
                throw error
            }
            didRun(true)
        } catch {
            fail(root, program: program, describe: describe, error)
        }
    }

    /// Runs an already parsed command's work under the same contract, then ends the process:
    /// status 0 when `body` returns, else the contract's answer to its error. For commands an
    /// executable recognises without parsing (`tandem`'s quick commands).
    public static func run<Root: ParsableCommand>(
        _ root: Root.Type, program: String, describe: @Sendable (any Error) -> String?, body: () throws -> Void
    ) -> Never {
        do {
            try body()
        } catch {
            fail(root, program: program, describe: describe, error)
        }
        Foundation.exit(0)
    }

    /// Ends the process for `error` as the contract says.
    private static func fail<Root: ParsableCommand>(
        _ root: Root.Type, program: String, describe: @Sendable (any Error) -> String?, _ error: any Error
    ) -> Never {
        if root.exitCode(for: error) == .success {
            root.exit(withError: error)  // help, version: ArgumentParser prints them
        }
        if let exit = error as? ExitCode {
            Foundation.exit(exit.rawValue)
        }
        var message: String
        if let described = describe(error) {
            message = described
        } else if let guess = suggestion(root, arguments: Array(CommandLine.arguments.dropFirst())) {
            message = "unknown command '\(guess.typed)': did you mean `\(program) \(guess.meant)`?"
        } else {
            message = fileErrorText(error) ?? oneLine(root.message(for: error))
        }
        FileHandle.standardError.write(Data("\(program): \(printable(message))\n".utf8))
        Foundation.exit(1)
    }

    /// For arguments that name no command: the first word where a command was expected, and the
    /// command path it most likely meant ("did you mean `tandem tasks`?", issue 51 item 8). Nil
    /// when every word names a command, or nothing is close (at most two edits away).
    public static func suggestion(_ root: any ParsableCommand.Type, arguments: [String]) -> (
        typed: String, meant: String
    )? {
        var command = root
        var path: [String] = []
        for argument in arguments {
            if argument.hasPrefix("-") { return nil }  // options come after the command path here
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            if let next = subcommands.first(where: {
                $0._commandName == argument || $0.configuration.aliases.contains(argument)
            }) {
                command = next
                path.append(argument)
                continue
            }
            let ranked = subcommands.map { ($0._commandName, editDistance(argument, $0._commandName)) }
                .filter { $0.1 <= 2 && $0.1 < max($0.0.count, argument.count) }
                .min { $0.1 < $1.1 }
            guard let best = ranked else { return nil }
            return (argument, (path + [best.0]).joined(separator: " "))
        }
        return nil
    }

    /// Levenshtein distance over characters, with a transposition counted as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// A Foundation file error in plain words (issue 51 item 8): `PATH: no such file or
    /// directory` where NSError would print `Error Domain=NSCocoaErrorDomain Code=4 …`. Other
    /// errors keep their own description.
    public static func plainText(_ error: any Error) -> String {
        fileErrorText(error) ?? String(describing: error)
    }

    /// ``plainText(_:)`` of a Foundation file error (Cocoa or POSIX domain); nil for any other.
    static func fileErrorText(_ error: any Error) -> String? {
        let ns = error as NSError
        guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return nil }
        let path = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError
        let code: Int? =
            ns.domain == NSPOSIXErrorDomain
            ? ns.code : underlying?.domain == NSPOSIXErrorDomain ? underlying?.code : nil
        let cocoa: String? =
            switch CocoaError.Code(rawValue: ns.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: "no such file or directory"
            case .fileReadNoPermission, .fileWriteNoPermission: "permission denied"
            case .fileWriteOutOfSpace: "no space left on the device"
            case .fileWriteVolumeReadOnly: "the volume is read-only"
            case .fileWriteFileExists: "it exists already"
            default: nil
            }
        let reason =
            code.map { String(cString: strerror(Int32($0))).lowercased() }
            ?? (ns.domain == NSCocoaErrorDomain ? cocoa : nil) ?? ns.localizedDescription
        return path.map { "\($0): \(reason)" } ?? reason
    }

    /// The longest error message printed, in Unicode scalars; the rest is cut with "…".
    public static let maximumMessageLength = 300

    /// `message` made safe for one terminal line: control characters (newlines, ESC, C1) are
    /// written as `\n`, `\t`, `\r` or `\u{XX}` escapes, so bytes echoed from an input can never
    /// break the one-line contract or drive the terminal, and the text is cut at
    /// ``maximumMessageLength``.
    public static func printable(_ message: String) -> String {
        var out = ""
        var count = 0
        for scalar in message.unicodeScalars {
            guard count < maximumMessageLength else {
                out += "…"
                break
            }
            count += 1
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isBidiControl(scalar):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` as human output may print it (issue 50 item 8): C0 control characters but the
    /// newline, DEL, C1 and the bidirectional overrides and isolates are removed, so that what
    /// someone else wrote (a message, a name, a task title, a node's error) can neither drive the
    /// terminal nor reorder what is shown around it. JSON output escapes them instead.
    public static func terminalSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafeForTerminal) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isUnsafeForTerminal(scalar) { out.append(scalar) }
        return String(out)
    }

    static func isUnsafeForTerminal(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\n" { return false }
        return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isBidiControl(scalar)
    }

    /// The embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder text
    /// on screen ("Trojan Source").
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// ArgumentParser's message on one line: its first line, and when that line announces a list
    /// ("Please provide one of the following:"), the list's items after it, comma-separated.
    static func oneLine(_ text: String) -> String {
        let trimmed = text.hasPrefix("Error: ") ? String(text.dropFirst(7)) : text
        let lines = trimmed.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lines.first else { return trimmed }
        let items = lines.dropFirst().prefix { $0.hasPrefix("- ") }.map { $0.dropFirst(2) }
        guard first.hasSuffix(":"), !items.isEmpty else { return first }
        return first + " " + items.joined(separator: ", ")
    }
}
