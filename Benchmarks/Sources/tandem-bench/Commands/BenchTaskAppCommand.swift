import ArgumentParser
import BenchSupport
import MicroBenchmarks

/// `tandem-bench task-app`: issue 27's figures (query 10,000 tasks, stats over 100,000 completions).
struct BenchTaskAppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "task-app",
        abstract: "Task queries over 10,000 tasks and statistics over 100,000 completions, against same-run baselines.")

    @OptionGroup var options: BenchOptions

    func run() throws {
        guard options.samples > 0 else { throw CLIError("--samples must be positive") }
        let reports = try TaskAppBenchmarks.run(samples: options.samples)
        if options.json { return try CommandIO.printJSON(["reports": reports]) }
        CommandIO.write(reports.map(\.markdown).joined(separator: "\n\n") + "\n")
    }
}
