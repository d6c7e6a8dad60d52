public import ChatTimeline

/// The harness's store fake: a keyset over the fixture sorted by `MessageKey`, the same ordering
/// and `LIMIT n+1` contract as `ChatHistory` (timeline-and-contacts.md §2.7 "Store fake").
public struct FixtureStore: Sendable {
    /// Live rows (deleted ones removed), ascending by key.
    public private(set) var rows: [FixtureMessage] = []
    private var keyByID: [MessageID: MessageKey] = [:]

    public init(messages: [FixtureMessage]) {
        rows = messages.sorted { $0.item.key < $1.item.key }
        for row in rows { keyByID[row.item.id] = row.item.key }
    }

    public func message(_ id: MessageID) -> FixtureMessage? {
        guard let key = keyByID[id] else { return nil }
        let index = lowerBound(key)
        return index < rows.count && rows[index].item.id == id ? rows[index] : nil
    }

    public mutating func insert(_ message: FixtureMessage) {
        rows.insert(message, at: lowerBound(message.item.key))
        keyByID[message.item.id] = message.item.key
    }

    public mutating func delete(_ id: MessageID) {
        guard let key = keyByID.removeValue(forKey: id) else { return }
        let index = lowerBound(key)
        if index < rows.count, rows[index].item.id == id { rows.remove(at: index) }
    }

    /// Replaces a row with a new revision (pending → sent keeps the id, may change the key).
    public mutating func update(_ message: FixtureMessage) {
        delete(message.item.id)
        insert(message)
    }

    /// Index of the first row whose key is not less than `key`.
    public func lowerBound(_ key: MessageKey) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid].item.key < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Answers a page request: raw rows decide `hasMore` and `boundary`; undecodable rows are
    /// left out of `items` only.
    public func page(_ request: PageRequest) -> TimelinePage {
        let limit = request.limit
        let raw: ArraySlice<FixtureMessage>
        let hasMore: Bool
        switch request.direction {
        case .newest:
            raw = rows.suffix(limit)
            hasMore = rows.count > limit
        case .older(let cursor):
            let end = lowerBound(cursor)
            raw = rows[max(0, end - limit)..<end]
            hasMore = end > limit
        case .newer(let cursor):
            var start = lowerBound(cursor)
            if start < rows.count, rows[start].item.key == cursor { start += 1 }
            raw = rows[start..<min(rows.count, start + limit)]
            hasMore = rows.count - start > limit
        }
        let boundary: MessageKey?
        switch request.direction {
        case .newer: boundary = raw.last?.item.key
        case .newest, .older: boundary = raw.first?.item.key
        }
        return TimelinePage(items: raw.filter(\.isDecodable).map(\.item), hasMore: hasMore, boundary: boundary)
    }
}
