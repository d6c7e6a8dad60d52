import BenchSupport
import ChatTimeline
public import MicroBenchmarks
public import TandemTesting

/// `tandem-bench timeline`: the §2.7 acceptance harness of timeline-and-contacts.md, run once.
///
/// The figures are counts and distances from a virtual-clock simulation, not timings, so they
/// are identical on every machine for the same seed.
public enum TimelineBench {
    public static func run(messages: Int, seed: UInt64) -> SimulationReport {
        var simulation = TimelineSimulation(messages: messages, seed: seed)
        return simulation.run()
    }

    /// The exact one-line JSON the issue specifies, keys in its order.
    public static func json(_ report: SimulationReport) -> String {
        "{\"messages\":\(report.messages),\"prepends\":\(report.prepends),"
            + "\"anchorDeltaMedian\":\(number(report.anchorDeltaMedian)),"
            + "\"anchorDeltaP99\":\(number(report.anchorDeltaP99)),"
            + "\"unexpectedScrolls\":\(report.unexpectedScrolls),"
            + "\"overlappingRequests\":\(report.overlappingRequests),"
            + "\"invariantViolations\":\(report.invariantViolations)}"
    }

    /// A readable summary for humans and for BENCHMARKS.md.
    public static func markdown(_ report: SimulationReport, seed: UInt64) -> String {
        [
            "### Timeline harness: \(report.messages) messages, seed \(seed)",
            "",
            "| figure | value | target |",
            "|---|---:|---:|",
            "| prepends | \(report.prepends) | — |",
            "| anchor delta median | \(number(report.anchorDeltaMedian)) pt | 0 pt |",
            "| anchor delta p99 | \(number(report.anchorDeltaP99)) pt | ≤ 1 pt |",
            "| unexpected scrolls | \(report.unexpectedScrolls) | 0 |",
            "| overlapping requests | \(report.overlappingRequests) | 0 |",
            "| invariant violations | \(report.invariantViolations) | 0 |",
            "| anchor moves from non-user events (any phase) | \(report.worldAnchorMoves) | 0 |",
            "| events / live arrivals | \(report.events) / \(report.liveArrivals) | — |",
            "| reached start / landed on newest | \(report.reachedStart) / \(report.landedOnNewest) | true / true |",
            "| virtual time | \(rounded(report.virtualSeconds, places: 1)) s | — |",
        ].joined(separator: "\n")
    }

    /// Integral values print without a fraction (`0`), others with up to three decimals.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : rounded(value, places: 3)
    }
}
