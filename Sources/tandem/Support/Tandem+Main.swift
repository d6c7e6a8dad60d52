import ArgumentParser
import Foundation

extension Tandem {
    /// Runs the command with the CLI contract for errors: any bad input ends with exit status 1
    /// and one line on stderr naming the input. `--help` and `--version` keep their usual output.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)  // help, version: ArgumentParser prints them
            }
            if let exit = error as? ExitCode {
                Foundation.exit(exit.rawValue)
            }
            let message = (error as? CLIError)?.description ?? oneLine(message(for: error))
            CommandIO.writeError("tandem: \(message)")
            Foundation.exit(1)
        }
    }

    private static func oneLine(_ text: String) -> String {
        let trimmed = text.hasPrefix("Error: ") ? String(text.dropFirst(7)) : text
        return trimmed.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? trimmed
    }
}
