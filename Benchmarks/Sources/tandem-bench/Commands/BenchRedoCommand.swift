import ArgumentParser
import BenchSupport
import Foundation
import MicroBenchmarks

/// `tandem-bench redo`: Redo canonical JSON, content ids, validation and replay figures.
struct BenchRedoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract:
            "Benchmark Redo: content id, JCS throughput, validate+verify vs raw Ed25519, replay 1k tasks / 1M nodes."
    )

    @Flag(help: "Print the results as JSON.")
    var json = false

    @Flag(help: "Skip the one-million-node replay (it needs ~2 GB and a minute of setup).")
    var skipLarge = false

    func run() throws {
        let summary = try RedoBenchmarks.run(large: !skipLarge)
        if json { return try CommandIO.printJSON(summary) }
        CommandIO.write(summary.markdown + "\n")
    }
}
