import Benchmark
import MicroBenchmarks
import SuiteRegistration

/// `swift package --package-path Benchmarks benchmark --target TaskApp`: the cases `tandem-bench`
/// measures interleaved, on package-benchmark.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = suiteConfiguration
    register { try TaskAppBenchmarks.querySuite() }
    register { try TaskAppBenchmarks.statisticsSuite() }
}
