import BenchSupport
import CommandLineContract

extension BenchCommand {
    /// The error contract of `tandem`: a bad argument exits with status 1 and one line
    /// `tandem-bench: …` on stderr; `--help` prints usage and exits 0.
    static func main() async {
        await CommandLineContract.main(BenchCommand.self, program: "tandem-bench") { ($0 as? CLIError)?.description }
    }
}
