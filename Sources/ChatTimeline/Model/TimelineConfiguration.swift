/// Tunables of the engine; the defaults follow timeline-and-contacts.md §2.6.
public struct TimelineConfiguration: Hashable, Sendable {
    /// Rows per page request and per reveal.
    public var pageSize: Int
    /// Pages of loaded-but-hidden older rows to keep warm (request while below this many).
    public var warmPages: Int
    /// Reveal older rows when the viewport top is within this many viewport heights of the top.
    public var revealViewports: Double
    /// Maximum rendered rows; beyond it the side farther from the anchor is trimmed.
    public var windowCap: Int
    /// Distance from the bottom, in points, that still counts as pinned.
    public var pinTolerance: Double

    public init(
        pageSize: Int = 50, warmPages: Int = 3, revealViewports: Double = 1.5, windowCap: Int = 1_500,
        pinTolerance: Double = 2
    ) {
        self.pageSize = max(1, pageSize)
        self.warmPages = max(1, warmPages)
        self.revealViewports = max(0, revealViewports)
        self.windowCap = max(2 * max(1, pageSize), windowCap)
        self.pinTolerance = max(0, pinTolerance)
    }
}
