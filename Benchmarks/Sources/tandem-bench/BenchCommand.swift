import ArgumentParser
import BenchSupport
import MicroBenchmarks

/// `tandem-bench …`: benchmarks that compare our code with a baseline measured in the same run.
///
/// A separate executable so the shipped `tandem` links no benchmark, fixture or simulation code
/// (issue 10). Subcommands, flags and JSON keys are those `tandem bench …` had.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tandem-bench",
        abstract: "Run benchmarks; each prints medians and ratios against a baseline from the same run.",
        discussion: "Build with -c release for meaningful figures.",
        subcommands: [
            CryptoBench.self, KasiaBench.self, KaspaTxBench.self, BenchRedoCommand.self, BenchTasksCommand.self,
            BenchTaskAppCommand.self,
            BenchTimelineCommand.self,
            BenchPagingCommand.self, BenchChatUICommand.self, BenchChatAppSeedCommand.self,
            ContactsBench.self,
            BenchServerCommand.self, BenchRelayCommand.self, BenchRelayServerCommand.self,
            BenchMinimalServerCommand.self,
            BenchRelayBodiesCommand.self,
            BenchSyncBodiesCommand.self,
            BenchSyncCommand.self, BenchStreamIdleCommand.self, WalletBench.self,
            WalletNodeBenchCommand.self, ChatNodeBenchCommand.self, ChainIndexBenchCommand.self,
        ]
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
