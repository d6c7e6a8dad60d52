import Benchmark
import MicroBenchmarks
import SuiteRegistration

/// `swift package --package-path Benchmarks benchmark --target Wallet`: the cases `tandem-bench`
/// measures interleaved, on package-benchmark.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = suiteConfiguration
    register { try WalletBenchmarks.suite() }
}
