/// Benchmark cases measured against the first of them, a baseline in the same run (issue 26
/// item 3): defined once, run by two drivers.
/// - `tandem-bench` measures them interleaved, sample by sample (``measureInterleaved(_:samples:)``),
///   and prints each median as a ratio to the baseline's: the figures of BENCHMARKS.md.
/// - The package-benchmark targets (`Benchmarks/Benchmarks/…`, `swift package benchmark`)
///   register each case as a `Benchmark`, for its percentiles, CPU and allocation counts, and
///   comparisons between saved baselines.
public struct BenchSuite {
    public let title: String
    /// The baseline first.
    public let cases: [BenchCase]

    public init(title: String, baseline: BenchCase, others: [BenchCase]) {
        self.title = title
        self.cases = [baseline] + others
    }

    /// Every case measured interleaved, as ratios to the baseline.
    public func report(samples: Int) throws -> BenchReport {
        let results = try measureInterleaved(cases, samples: samples)
        return BenchReport(title: title, baseline: results[0], others: Array(results.dropFirst()))
    }
}
