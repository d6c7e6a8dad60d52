import Benchmark
import MicroBenchmarks
import SuiteRegistration

/// `TANDEM_BENCHMARKS=1 swift package benchmark --target KasiaCrypto`: the cases `tandem-bench`
/// measures interleaved, on package-benchmark.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = suiteConfiguration
    register { try CryptoBenchmarks.suite() }
}

/// The suite's entry point: package-benchmark's runner with the registrations above.
@main enum KasiaCryptoSuite: BenchmarkRunnerHooks {
    static func registerBenchmarks() { benchmarks() }
}
