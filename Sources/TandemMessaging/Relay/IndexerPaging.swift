/// KaChat's paging rule for the indexer reads (kasia-protocol §10): pages of 50, the next
/// cursor is the maximum `block_time` seen (inclusive, so boundary rows come back and are
/// de-duplicated by `tx_id`), stop on a page shorter than the limit or when the cursor does not
/// advance, and at most 20 pages per pass. A row the indexer has not finished (an unresolved
/// sender, ``IndexerRow/isFinal``) is not delivered and holds the cursor before it: the rows
/// after it are delivered, and read again (and dropped by `tx_id`) until it is final.
public struct IndexerPaging: Sendable, Equatable {
    /// Rows per request; the indexer's maximum.
    public var limit: Int
    /// Requests per pass; the next pass resumes from the stored cursor.
    public var maximumPages: Int

    public init(limit: Int = 50, maximumPages: Int = 20) {
        self.limit = limit
        self.maximumPages = maximumPages
    }

    /// What one page did to `cursor`: the rows not seen before (in page order) and whether
    /// to ask for another page.
    public func apply<Row: IndexerRow>(page rows: [Row], to cursor: inout IndexerCursor) -> (fresh: [Row], more: Bool) {
        let before = cursor
        var fresh: [Row] = []
        var held = false
        for row in rows where !cursor.hasSeen(txID: row.txID, blockTime: row.blockTime) {
            guard row.isFinal else {
                held = true
                continue
            }
            fresh.append(row)
            if !held { cursor.advance(txID: row.txID, blockTime: row.blockTime) }
        }
        return (fresh, !held && rows.count >= limit && cursor.blockTime > before.blockTime)
    }
}
