import ArgumentParser
import BenchSupport
import Foundation

/// `tandem-bench chatui`: the terminal chat client's frame time and memory (issue 16 "Figures").
struct BenchChatUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chatui",
        abstract: "Measure key press → frame of `tandem chat ui`'s screen model scrolling a long conversation."
    )

    @Option(help: "Messages in the benchmark conversation (at least 1000).")
    var messages: Int = 100_000

    @Option(help: "Directory for the temporary SQLite file (default: the system temporary directory).")
    var directory: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        guard messages >= 1_000 else { throw CLIError("--messages must be at least 1000, got \(messages)") }
        let base = directory.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError("--directory \(base.path) is not an existing directory")
        }
        let workspace = base.appendingPathComponent("tandem-chatui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        let result = try ChatUIBench.run(messages: messages, directory: workspace)
        if json {
            try CommandIO.printJSON(result)
        } else {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            CommandIO.write(ChatUIBench.markdown(result, machine: "\(cores) cores") + "\n")
        }
    }
}
