extension TimelineEngine {
    /// Checks the invariants of timeline-and-contacts.md §2.7 over backlog + window; empty when
    /// all hold. The harness and tests call it after every event.
    public func invariantViolations() -> [TimelineInvariantViolation] {
        var violations: [TimelineInvariantViolation] = []
        let loaded = backlog + items
        var seenIDs: Set<MessageID> = []
        var seenTx: Set<TxID> = []
        for (index, row) in loaded.enumerated() {
            if index > 0, !(loaded[index - 1].key < row.key) {
                violations.append(.keysNotIncreasing(loaded[index - 1].key, row.key))
            }
            if !seenIDs.insert(row.id).inserted { violations.append(.duplicateID(row.id)) }
            if let txID = row.txID, !seenTx.insert(txID).inserted { violations.append(.duplicateTxID(txID)) }
        }
        if hasLoaded, contentOffset < minOffset - 1e-6 || contentOffset > maxOffset + 1e-6 {
            violations.append(.offsetOutOfRange(contentOffset))
        }
        return violations
    }
}

extension TimelineEngine: CustomStringConvertible {
    /// A one-line summary (the full state is too large to print usefully).
    public var description: String {
        "TimelineEngine(window: \(items.count), backlog: \(backlog.count), offset: \(contentOffset), "
            + "max: \(maxOffset), pinned: \(isPinnedToBottom), liveTail: \(atLiveTail), "
            + "olderExhausted: \(olderExhausted), inFlight: \(inFlight.map { "\($0.token)" } ?? "none"), unseen: \(unseenCount))"
    }
}
