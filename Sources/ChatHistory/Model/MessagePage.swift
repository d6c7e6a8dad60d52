public import ChatTimeline

/// One keyset page of raw rows, oldest first.
///
/// `hasMore` and `boundary` come from the raw `LIMIT n+1` result before anything is decrypted, so
/// rows that later fail to decrypt still move the cursor (timeline-and-contacts.md §0.2, §1.5).
public struct MessagePage: Hashable, Sendable {
    public var rows: [StoredMessage]
    public var hasMore: Bool
    /// The farthest row's key in the paging direction: the next exclusive cursor.
    public var boundary: MessageKey?

    public init(rows: [StoredMessage], hasMore: Bool, boundary: MessageKey?) {
        self.rows = rows
        self.hasMore = hasMore
        self.boundary = boundary
    }
}
