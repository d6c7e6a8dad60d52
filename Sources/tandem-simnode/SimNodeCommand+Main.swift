import CommandLineContract

extension SimNodeCommand {
    /// The error contract of the Tandem executables: a bad argument exits with status 1 and one
    /// line `tandem-simnode: …` on stderr; `--help` prints usage and exits 0.
    static func main() async {
        await CommandLineContract.main(SimNodeCommand.self, program: "tandem-simnode") { _ in nil }
    }
}
