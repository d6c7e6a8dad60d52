import CommandLineContract

extension Tandem {
    /// Runs the command with the CLI contract for errors: any bad input ends with exit status 1
    /// and one line on stderr naming the input. `--help` and `--version` keep their usual output.
    /// The most common commands in their plain forms run without the full parse (``QuickCommand``).
    static func main() async {
        QuickCommand.recognize(Array(CommandLine.arguments.dropFirst()))?.run()
        await CommandLineContract.main(
            Tandem.self, program: "tandem", describe: describe,
            willRun: ProfileCreation.prepare(for:), didRun: ProfileCreation.finish(succeeded:))
    }

    /// The message of this executable's own errors.
    @Sendable static func describe(_ error: any Error) -> String? { (error as? CLIError)?.description }
}
