import ArgumentParser

/// `tandem bench …`: benchmarks that compare our code with a baseline measured in the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run benchmarks; each prints medians and ratios against a baseline from the same run.",
        subcommands: [BenchTimelineCommand.self, BenchPagingCommand.self]
    )
}
