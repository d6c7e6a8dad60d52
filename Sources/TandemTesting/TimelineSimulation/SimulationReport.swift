public import ChatTimeline

/// The figures of one harness run (timeline-and-contacts.md §2.7); distances in points.
public struct SimulationReport: Hashable, Sendable {
    /// History messages in the fixture (live arrivals come on top).
    public var messages: Int
    /// Reveal transactions that put older rows above the reader.
    public var prepends: Int
    public var anchorDeltaMedian: Double
    /// Nearest-rank 99th percentile.
    public var anchorDeltaP99: Double
    /// Absolute moves or visible anchor movement during passive reading while not pinned.
    public var unexpectedScrolls: Int
    /// Requests issued while another was outstanding, plus repeats of a served cursor.
    public var overlappingRequests: Int
    /// Engine invariant breaks, gaps against the store, and end-of-run checks that failed.
    public var invariantViolations: Int
    /// Events fed to the engine.
    public var events: Int
    public var liveArrivals: Int
    /// Events the reader did not cause (replies, arrivals, promotions, deletions, late heights)
    /// that moved the row under the viewport top by more than 0.5 pt while not following the
    /// tail, in any phase, not only passive reading. Stricter than `unexpectedScrolls`.
    public var worldAnchorMoves: Int
    public var reachedStart: Bool
    public var landedOnNewest: Bool
    public var virtualSeconds: Double
    /// The first violation or anchor jump seen, for diagnosis; `nil` on a clean run.
    public var firstProblem: String?
}
