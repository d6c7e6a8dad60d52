import Benchmark
import MicroBenchmarks
import SuiteRegistration

/// `TANDEM_BENCHMARKS=1 swift package benchmark --target Redo`: the cases `tandem-bench redo`
/// measures interleaved (content id, validation, replay of 1,000 tasks), on package-benchmark.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = suiteConfiguration
    register { try RedoBenchmarks.canonicalizationSuite().suite }
    register { try RedoBenchmarks.validationSuite() }
    register { try RedoBenchmarks.replaySuite() }
}

/// The suite's entry point: package-benchmark's runner with the registrations above.
@main enum RedoSuite: BenchmarkRunnerHooks {
    static func registerBenchmarks() { benchmarks() }
}
