/// Which slice of the conversation a page request asks for.
public enum PageDirection: Hashable, Sendable {
    /// The newest `limit` rows: initial open and jump to bottom after the window left the tail.
    case newest
    /// Rows strictly older than the key (an exclusive keyset cursor).
    case older(than: MessageKey)
    /// Rows strictly newer than the key, to refill below after the memory cap trimmed the tail.
    case newer(than: MessageKey)
}

/// A page the engine wants loaded. The shell runs it and answers with `pageLoaded` or
/// `pageFailed` carrying the same token; at most one request is in flight (§2.6).
public struct PageRequest: Hashable, Sendable {
    public let token: PageToken
    public let direction: PageDirection
    public let limit: Int

    public init(token: PageToken, direction: PageDirection, limit: Int) {
        self.token = token
        self.direction = direction
        self.limit = limit
    }
}

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
