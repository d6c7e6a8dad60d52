import ArgumentParser
import BenchSupport

/// `tandem-bench contacts`: the issue 7 figures.
struct ContactsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "Merge 10,000 remote records, migrate 10,000 legacy contacts, 500 rapid changes → events."
    )

    @OptionGroup var options: BenchOptions

    @Option(name: .long, help: "Records and legacy contacts per run.")
    var count: Int = 10_000

    func run() async throws {
        guard options.samples > 0, count >= 500 else {
            throw CLIError("--samples must be positive and --count at least 500")
        }
        let result = try await ContactsBenchmarks.run(samples: options.samples, count: count)
        if options.json {
            try CommandIO.printJSON(result)
        } else {
            CommandIO.write(result.markdown + "\n")
        }
    }
}
