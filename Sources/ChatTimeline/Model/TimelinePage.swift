/// A store's answer to a `PageRequest`.
///
/// `hasMore` and `boundary` come from the raw `LIMIT n+1` rows before decryption, so a page whose
/// rows could not be decoded still moves the cursor (timeline-and-contacts.md §0.2, §1.5).
public struct TimelinePage: Hashable, Sendable {
    /// The decodable rows, any order; the engine sorts and deduplicates.
    public var items: [TimelineItem]
    /// Whether more rows exist beyond this page in the requested direction.
    public var hasMore: Bool
    /// Key of the farthest raw row returned (oldest for `older`/`newest`, newest for `newer`),
    /// decodable or not; `nil` for an empty page.
    public var boundary: MessageKey?

    public init(items: [TimelineItem], hasMore: Bool, boundary: MessageKey?) {
        self.items = items
        self.hasMore = hasMore
        self.boundary = boundary
    }
}
