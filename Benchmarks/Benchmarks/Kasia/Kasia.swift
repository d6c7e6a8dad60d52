import Benchmark
import MicroBenchmarks
import SuiteRegistration

/// `swift package --package-path Benchmarks benchmark --target Kasia`: the cases `tandem-bench
/// kasia` measures interleaved (payload parsing; routing at 10,000 contacts), on package-benchmark.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = suiteConfiguration
    register { try KasiaBenchmarks.parsingSuite() }
    register { try KasiaBenchmarks.routingSuite() }
}
