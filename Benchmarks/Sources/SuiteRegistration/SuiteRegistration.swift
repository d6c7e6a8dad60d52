public import Benchmark
import Foundation
public import MicroBenchmarks

/// Registers every case of a ``BenchSuite`` with package-benchmark, under the suite's title; the
/// baseline's name says it is one. `makeSuite` runs when the benchmark executable starts, so a
/// set-up that fails registers one benchmark that reports the failure instead of measuring.
///
/// In a smoke run (``isSmokeRun``) a failure ends the process with status 1 and the error on
/// standard error instead: CI runs each suite's executable directly, and package-benchmark's
/// runner without its tool (`swift package benchmark`) drops a benchmark's error and exits 0.
public func register(_ makeSuite: () throws -> BenchSuite) {
    let suite: BenchSuite
    do { suite = try makeSuite() } catch {
        let message = "\(error)"
        if isSmokeRun { failSmokeRun("set-up failed: \(message)") }
        Benchmark("set-up failed") { benchmark in benchmark.error(message) }
        return
    }
    for (index, bench) in suite.cases.enumerated() {
        // One iteration is one call of the case's body; package-benchmark chooses how many.
        let calls = bench.operations > 1 ? " (one call: \(bench.operations) operations)" : ""
        let name = (index == 0 ? "baseline: " : "") + bench.name + calls
        Benchmark(name) { benchmark in
            for _ in benchmark.scaledIterations {
                do { try bench.body() } catch  where isSmokeRun { failSmokeRun("\(name): \(error)") }
            }
        }
    }
}

/// With `TANDEM_BENCHMARK_SMOKE` set (CI's run of each suite on the debug build, so the targets
/// cannot rot), each benchmark runs a couple of iterations only: a smoke run, not a figure.
public let isSmokeRun = ProcessInfo.processInfo.environment["TANDEM_BENCHMARK_SMOKE"] != nil

private func failSmokeRun(_ message: String) -> Never {
    FileHandle.standardError.write(Data("benchmark smoke run: \(message)\n".utf8))
    exit(1)
}

/// What every target measures: wall time, CPU and throughput, for as long as a few seconds allow.
/// No allocation counts: they need package-benchmark's malloc interposer, which is off (see the
/// benchmarks' part of Package.swift).
public var suiteConfiguration: Benchmark.Configuration {
    if isSmokeRun {
        return Benchmark.Configuration(
            metrics: [.wallClock], warmupIterations: 0, maxDuration: .milliseconds(50), maxIterations: 2)
    }
    return Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .throughput], warmupIterations: 1,
        maxDuration: .seconds(3), maxIterations: 1_000)
}
