import Benchmark
import MicroBenchmarks
import SuiteRegistration

/// `swift package --package-path Benchmarks benchmark --target Redo`: the cases `tandem-bench redo`
/// measures interleaved (content id, validation, replay of 1,000 tasks), on package-benchmark.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = suiteConfiguration
    register { try RedoBenchmarks.canonicalizationSuite().suite }
    register { try RedoBenchmarks.validationSuite() }
    register { try RedoBenchmarks.replaySuite() }
}
