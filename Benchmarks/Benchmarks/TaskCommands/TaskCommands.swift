import Benchmark
import Foundation
import MicroBenchmarks
import SuiteRegistration

/// `TANDEM_BENCHMARKS=1 swift package benchmark --target TaskCommands`: the cases
/// `tandem-bench tasks` measures interleaved, on a store of 1,000 tasks, on package-benchmark.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = suiteConfiguration
    // The store lives as long as the process: package-benchmark's teardown hook runs after each
    // benchmark, and a direct run of this executable (CI's smoke run) measures them all in one.
    atexit { try? FileManager.default.removeItem(at: storeDirectory) }
    register { try TaskStoreBenchmarks.suite(tasks: 1_000, directory: storeDirectory) }
}

let storeDirectory = FileManager.default.temporaryDirectory
    .appendingPathComponent("tandem-benchmark-tasks-\(UUID().uuidString)")

/// The suite's entry point: package-benchmark's runner with the registrations above.
@main enum TaskCommandsSuite: BenchmarkRunnerHooks {
    static func registerBenchmarks() { benchmarks() }
}
