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
    /// the first line of ArgumentParser's message.
    public static func main<Root: ParsableCommand>(
        _ root: Root.Type, program: String, describe: @Sendable (any Error) -> String?
    ) async {
        do {
            var command = try root.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if root.exitCode(for: error) == .success {
                root.exit(withError: error)  // help, version: ArgumentParser prints them
            }
            if let exit = error as? ExitCode {
                Foundation.exit(exit.rawValue)
            }
            let message = describe(error) ?? oneLine(root.message(for: error))
            FileHandle.standardError.write(Data("\(program): \(message)\n".utf8))
            Foundation.exit(1)
        }
    }

    private static func oneLine(_ text: String) -> String {
        let trimmed = text.hasPrefix("Error: ") ? String(text.dropFirst(7)) : text
        return trimmed.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? trimmed
    }
}
