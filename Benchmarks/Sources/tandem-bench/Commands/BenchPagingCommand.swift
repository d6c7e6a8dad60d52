import ArgumentParser
import BenchSupport
import Foundation

/// `tandem-bench paging`: keyset against OFFSET page latency in one very long conversation.
struct BenchPagingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paging",
        abstract: "Measure chat history page latency at increasing depth, keyset against OFFSET."
    )

    @Option(help: "Messages in the benchmark conversation (at least 1000).")
    var messages: Int = 1_000_000

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
        let workspace = base.appendingPathComponent("tandem-paging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        let result = try PagingBench.run(messages: messages, directory: workspace)
        if json {
            try CommandIO.printJSON(result)
        } else {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            CommandIO.write(PagingBench.markdown(result, machine: "\(cores) cores") + "\n")
        }
    }
}
