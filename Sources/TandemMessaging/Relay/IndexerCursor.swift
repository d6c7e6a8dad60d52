/// Where a reader stands in one indexer route (kasia-protocol §10, KaChat's paging): the next
/// request's inclusive `block_time`, and the transaction ids already seen at exactly that time,
/// which the inclusive cursor returns again and which are skipped.
public struct IndexerCursor: Sendable, Equatable, Codable {
    public var blockTime: UInt64
    public var seenAtBlockTime: Set<String>

    public init(blockTime: UInt64 = 0, seenAtBlockTime: Set<String> = []) {
        self.blockTime = blockTime
        self.seenAtBlockTime = seenAtBlockTime
    }

    /// The start of a route.
    public static let start = IndexerCursor()

    /// Whether a row was already delivered through this cursor.
    public func hasSeen(txID: String, blockTime: UInt64) -> Bool {
        blockTime < self.blockTime || (blockTime == self.blockTime && seenAtBlockTime.contains(txID))
    }

    /// Moves past a delivered row: the cursor becomes the maximum block time seen.
    public mutating func advance(txID: String, blockTime: UInt64) {
        if blockTime > self.blockTime {
            self.blockTime = blockTime
            seenAtBlockTime = [txID]
        } else if blockTime == self.blockTime {
            seenAtBlockTime.insert(txID)
        }
    }
}
