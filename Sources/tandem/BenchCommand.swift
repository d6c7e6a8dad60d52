import ArgumentParser
import TandemBench

/// `tandem bench …`: benchmarks that compare our code with a baseline measured in the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run benchmarks; each prints medians and ratios against a baseline from the same run.",
        discussion: "Build with -c release for meaningful figures.",
        subcommands: [CryptoBench.self, ContactsBench.self]
    )
}

/// Shared by every benchmark: how long to measure and how to print.
struct BenchOptions: ParsableArguments {
    @Option(name: .long, help: "Timed samples per benchmark (the median is reported).")
    var samples: Int = 11

    @Flag(name: .long, help: "Print the report as JSON instead of a Markdown table.")
    var json = false

    func print(_ report: BenchReport) throws {
        if json {
            try CommandIO.printJSON(report)
        } else {
            CommandIO.write(report.markdown + "\n")
        }
    }
}

struct CryptoBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto",
        abstract: "Raw ECDH vs alias pair derivation, seal and open of a 100-byte message."
    )

    @OptionGroup var options: BenchOptions

    @Option(name: .long, help: "Operations per sample.")
    var iterations: Int = 400

    @Flag(name: .long, help: "Also time the parts (key parsing, HKDF, AEAD) alone.")
    var breakdown = false

    func run() throws {
        guard options.samples > 0, iterations > 0 else { throw CLIError("--samples and --iterations must be positive") }
        try options.print(CryptoBenchmarks.run(samples: options.samples, iterations: iterations))
        if breakdown {
            for m in try CryptoBreakdown.run(samples: options.samples) {
                CommandIO.write("\(m.name): \(Int(m.medianNanoseconds)) ns\n")
            }
        }
    }
}
