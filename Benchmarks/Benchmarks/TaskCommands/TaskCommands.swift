import Benchmark
import Foundation
import MicroBenchmarks
import SuiteRegistration

/// `swift package --package-path Benchmarks benchmark --target TaskCommands`: the cases
/// `tandem-bench tasks` measures interleaved, on a store of 1,000 tasks, on package-benchmark.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = suiteConfiguration
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("tandem-benchmark-tasks-\(UUID().uuidString)")
    Benchmark.teardown = { try? FileManager.default.removeItem(at: directory) }
    register { try TaskStoreBenchmarks.suite(tasks: 1_000, directory: directory) }
}
