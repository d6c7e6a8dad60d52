import Foundation

/// The contact records' compare-and-swap (issue 12 item 4), written once for both backends
/// (issue 26 item 2): a backend reads the stored versions of the named records and the sync
/// clock, and writes the rows this plan lists.
struct SealedRecordPutPlan: Sendable, Equatable {
    /// A row of a sealed-record collection's table to insert or replace.
    struct Write: Sendable, Equatable {
        let id: String
        let version: Int64
        let box: Data
        let position: Int64
    }

    let outcome: SealedRecordPutOutcome
    /// Empty on a conflict: then nothing is written.
    let writes: [Write]
    /// The sync clock's new value.
    let clock: Int64

    /// Every record or none: a record whose stored version (0 when absent) is not its draft's
    /// base conflicts, and any conflict writes nothing. Otherwise each draft takes the next
    /// position in request order; an id named twice keeps its last write, at that write's
    /// position, and the clock moves past every draft.
    static func plan(_ drafts: [SealedRecordDraft], stored: [String: Int64], clock last: Int64) -> SealedRecordPutPlan {
        let conflicts = drafts.filter { (stored[$0.id] ?? 0) != $0.baseVersion }.map(\.id)
        guard conflicts.isEmpty else {
            return SealedRecordPutPlan(outcome: .conflict(conflicts), writes: [], clock: last)
        }
        var lastIndex: [String: Int] = [:]
        for (index, draft) in drafts.enumerated() { lastIndex[draft.id] = index }
        let writes = drafts.enumerated().compactMap { index, draft -> Write? in
            guard lastIndex[draft.id] == index else { return nil }
            return Write(
                id: draft.id, version: draft.baseVersion + 1, box: draft.box, position: last + Int64(index) + 1)
        }
        return SealedRecordPutPlan(
            outcome: .written(drafts.map { $0.baseVersion + 1 }), writes: writes, clock: last + Int64(drafts.count))
    }
}

/// Sharing a task (issue 12 item 3), written once for both backends: who may share, and the
/// recipient's new feed rows.
struct TaskSharePlan: Sendable, Equatable {
    let outcome: TaskShareOutcome
    /// True when the recipient's access row is to be inserted.
    let grant: Bool
    /// The recipient's copies of the task's nodes, in node order.
    let feed: [RedoPushPlan.FeedRow]
    /// The sync clock's new value.
    let clock: Int64

    /// Whether a share happens, from the task's access list: only a reader shares, sharing with
    /// a reader changes nothing, and a recipient who has not accepted a share from the sharer
    /// before (`trusted` false) gets an invitation rather than the task.
    static func decide(sharer: AccountID, recipient: AccountID, readers: Set<String>, trusted: Bool)
        -> TaskShareOutcome
    {
        guard readers.contains(sharer.rawValue) else { return .notFound }
        if readers.contains(recipient.rawValue) { return .alreadyShared }
        return trusted ? .added : .invited
    }

    /// An added share: the recipient's access and one feed row per stored node of the task
    /// (`nodes`, ids and node positions, in node order), at the next positions.
    static func added(recipient: AccountID, nodes: [(id: String, position: Int64)], clock last: Int64)
        -> TaskSharePlan
    {
        let feed = nodes.enumerated().map { index, node in
            RedoPushPlan.FeedRow(
                position: last + Int64(index) + 1, userID: recipient.rawValue, nodeID: node.id,
                nodePosition: node.position)
        }
        return TaskSharePlan(outcome: .added, grant: true, feed: feed, clock: last + Int64(nodes.count))
    }
}

extension SealedRecordPutPlan {
    /// What `writes` change in the account's usage: a new record adds a row and its box, a
    /// replaced one the difference of the boxes (`storedBytes`: the stored box sizes by id).
    static func usageChange(_ writes: [Write], storedBytes: [String: Int64]) -> (rows: Int64, bytes: Int64) {
        var rows: Int64 = 0
        var bytes: Int64 = 0
        for write in writes {
            if let old = storedBytes[write.id] {
                bytes += Int64(write.box.count) - old
            } else {
                rows += 1
                bytes += Int64(write.box.count)
            }
        }
        return (rows, bytes)
    }
}
