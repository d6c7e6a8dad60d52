/// One benchmark result: the median time of one iteration over several samples.
public struct BenchMeasurement: Sendable, Encodable {
    public let name: String
    /// Iterations run inside each timed sample.
    public let iterationsPerSample: Int
    public let samples: Int
    /// Median nanoseconds for one iteration.
    public let medianNanoseconds: Double
    /// Fastest sample, nanoseconds per iteration.
    public let minNanoseconds: Double

    public var operationsPerSecond: Double { medianNanoseconds > 0 ? 1e9 / medianNanoseconds : 0 }

    public init(name: String, iterationsPerSample: Int, samples: Int, medianNanoseconds: Double, minNanoseconds: Double)
    {
        self.name = name
        self.iterationsPerSample = iterationsPerSample
        self.samples = samples
        self.medianNanoseconds = medianNanoseconds
        self.minNanoseconds = minNanoseconds
    }
}

/// Measures `body` with a monotonic clock: `samples` timed runs of `iterations` calls each.
///
/// One warm-up sample runs first and is discarded. The median is robust to the odd slow sample
/// on a busy two-core machine; that is why we report it rather than the mean.
public func measure(
    _ name: String,
    samples: Int = 11,
    iterations: Int,
    _ body: () throws -> Void
) rethrows -> BenchMeasurement {
    let clock = ContinuousClock()
    var perIteration: [Double] = []
    perIteration.reserveCapacity(samples)
    for sample in 0...samples {
        let elapsed = try clock.measure {
            for _ in 0..<iterations { try body() }
        }
        if sample > 0 { perIteration.append(elapsed.nanoseconds / Double(iterations)) }
    }
    perIteration.sort()
    return BenchMeasurement(
        name: name,
        iterationsPerSample: iterations,
        samples: samples,
        medianNanoseconds: perIteration[perIteration.count / 2],
        minNanoseconds: perIteration[0]
    )
}

extension Duration {
    /// The duration in nanoseconds as a `Double`.
    public var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// Keeps a value alive so the optimiser cannot drop the work that produced it.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// One benchmark for ``measureInterleaved(_:samples:)`` and the package-benchmark targets.
public struct BenchCase {
    public let name: String
    public let iterations: Int
    /// Operations one call of `body` does (the inputs of a transaction it signs, say): figures
    /// are per operation.
    public let operations: Int
    public let body: () throws -> Void

    public init(_ name: String, iterations: Int, operations: Int = 1, _ body: @escaping () throws -> Void) {
        self.name = name
        self.iterations = iterations
        self.operations = operations
        self.body = body
    }
}

/// Measures several benchmarks round-robin: sample 1 of each, then sample 2 of each, and so on.
///
/// On a shared machine, load comes and goes over seconds; measuring benchmarks one after another
/// lets a burst land on one of them and skew its ratio to the baseline. Interleaving spreads any
/// burst over all of them, so ratios from one run stay comparable.
public func measureInterleaved(_ cases: [BenchCase], samples: Int = 11) throws -> [BenchMeasurement] {
    let clock = ContinuousClock()
    var perIteration = Array(repeating: [Double](), count: cases.count)
    for sample in 0...samples {
        for (index, bench) in cases.enumerated() {
            let elapsed = try clock.measure {
                for _ in 0..<bench.iterations { try bench.body() }
            }
            if sample > 0 {
                perIteration[index].append(elapsed.nanoseconds / Double(bench.iterations * bench.operations))
            }
        }
    }
    return zip(cases, perIteration).map { bench, times in
        let sorted = times.sorted()
        return BenchMeasurement(
            name: bench.name, iterationsPerSample: bench.iterations, samples: samples,
            medianNanoseconds: sorted[sorted.count / 2], minNanoseconds: sorted[0])
    }
}
