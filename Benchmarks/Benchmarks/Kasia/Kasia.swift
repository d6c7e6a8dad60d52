import Benchmark
import MicroBenchmarks
import SuiteRegistration

/// `TANDEM_BENCHMARKS=1 swift package benchmark --target Kasia`: the cases `tandem-bench
/// kasia` measures interleaved (payload parsing; routing at 10,000 contacts), on package-benchmark.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = suiteConfiguration
    register { try KasiaBenchmarks.parsingSuite() }
    register { try KasiaBenchmarks.routingSuite() }
}

/// The suite's entry point: package-benchmark's runner with the registrations above.
@main enum KasiaSuite: BenchmarkRunnerHooks {
    static func registerBenchmarks() { benchmarks() }
}
