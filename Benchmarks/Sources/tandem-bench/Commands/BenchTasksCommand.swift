import ArgumentParser
import BenchSupport
import MicroBenchmarks

/// `tandem-bench tasks`: the issue 12 item 6 figures for local task commands.
struct BenchTasksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tasks",
        abstract: "Local task commands on a store of N tasks: projection read and edits vs the old full replay."
    )

    @OptionGroup var options: BenchOptions

    @Option(name: .long, help: "Tasks in the store before measuring.")
    var tasks: Int = 1_000

    func run() throws {
        guard options.samples > 0, tasks >= 10 else {
            throw CLIError("--samples must be positive and --tasks at least 10")
        }
        let report = try TaskStoreBenchmarks.run(tasks: tasks, samples: options.samples)
        if options.json { return try CommandIO.printJSON(report) }
        CommandIO.write(report.markdown + "\n")
    }
}
