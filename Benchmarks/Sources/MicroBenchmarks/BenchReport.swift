/// A set of measurements taken in one run, each compared with a baseline from the same run.
public struct BenchReport: Sendable, Encodable {
    public struct Row: Sendable, Encodable {
        public let measurement: BenchMeasurement
        /// `measurement / baseline`; 1.0 for the baseline itself.
        public let ratioToBaseline: Double
    }

    public let title: String
    public let baseline: String
    public let rows: [Row]

    public init(title: String, baseline: BenchMeasurement, others: [BenchMeasurement]) {
        self.title = title
        self.baseline = baseline.name
        self.rows = ([baseline] + others).map {
            Row(measurement: $0, ratioToBaseline: $0.medianNanoseconds / baseline.medianNanoseconds)
        }
    }

    /// A Markdown table, ready for BENCHMARKS.md.
    public var markdown: String {
        var lines = [
            "### \(title)",
            "",
            "| benchmark | median | ops/s | × \(baseline) |",
            "|---|---:|---:|---:|",
        ]
        for row in rows {
            let m = row.measurement
            lines.append(
                "| \(m.name) | \(formatDuration(m.medianNanoseconds)) | \(formatRate(m.operationsPerSecond)) | \(formatRatio(row.ratioToBaseline)) |"
            )
        }
        return lines.joined(separator: "\n")
    }
}

public func formatDuration(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1_000: return "\(rounded(nanoseconds, places: 0)) ns"
    case ..<1_000_000: return "\(rounded(nanoseconds / 1_000, places: 2)) µs"
    case ..<1_000_000_000: return "\(rounded(nanoseconds / 1_000_000, places: 2)) ms"
    default: return "\(rounded(nanoseconds / 1_000_000_000, places: 3)) s"
    }
}

public func formatRate(_ perSecond: Double) -> String {
    perSecond >= 1_000 ? "\(Int(perSecond.rounded()))" : "\(rounded(perSecond, places: 1))"
}

public func formatRatio(_ ratio: Double) -> String { "\(rounded(ratio, places: 2))×" }

public func rounded(_ value: Double, places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let r = (value * scale).rounded() / scale
    return places == 0 ? "\(Int(r))" : "\(r)"
}
