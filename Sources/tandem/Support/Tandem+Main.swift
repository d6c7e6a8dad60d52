import CommandLineContract

extension Tandem {
    /// Runs the command with the CLI contract for errors: any bad input ends with exit status 1
    /// and one line on stderr naming the input. `--help` and `--version` keep their usual output.
    static func main() async {
        await CommandLineContract.main(
            Tandem.self, program: "tandem", describe: { ($0 as? CLIError)?.description },
            willRun: ProfileCreation.prepare(for:), didRun: ProfileCreation.finish(succeeded:))
    }
}
