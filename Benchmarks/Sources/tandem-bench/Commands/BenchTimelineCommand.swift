import ArgumentParser
import BenchSupport

/// `tandem-bench timeline`: runs the headless timeline harness and prints its figures.
struct BenchTimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Simulate a reader scrolling a long chat and report anchor stability, scrolls and paging overlap."
    )

    @Option(help: "History messages in the seeded fixture (at least 100).")
    var messages: Int = 5_200

    @Option(help: "Seed of the fixture and the scripted reader.")
    var seed: UInt64 = 1

    @Flag(help: "Print one JSON line instead of a Markdown table.")
    var json = false

    func run() async throws {
        guard messages >= 100 else {
            throw CLIError("--messages must be at least 100, got \(messages)")
        }
        guard messages <= 10_000_000 else {
            throw CLIError("--messages must be at most 10000000, got \(messages)")
        }
        let report = TimelineBench.run(messages: messages, seed: seed)
        if json {
            CommandIO.write(TimelineBench.json(report) + "\n")
        } else {
            CommandIO.write(TimelineBench.markdown(report, seed: seed) + "\n")
        }
    }
}
