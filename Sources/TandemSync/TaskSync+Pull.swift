import CanonicalJSON
import Foundation
import RedoProtocol
import TandemAccounts
import TaskStore

/// The pull half of ``TaskSync``, a ``PagedPull`` (issue 12 "Figures": a new device's 10,000-node
/// pull under 1 s; issue 46 item 4: structured and cancellable). The request for page N+1 is in
/// flight while page N is validated, and the writer stores what is validated while the next
/// nodes are. Each node still gets every check of spec §6.2 with its signature, writes are made
/// in server order (a child's write never lands before its parent's), and the cursor is saved
/// only with the write that completes its page: an interrupted or cancelled pull resumes where
/// the last stored page ended.
extension TaskSync {
    /// What the writer stores: validated entries, with the state to save once they complete a
    /// page, and the progress to announce after.
    struct Stored: Sendable {
        var entries: [LogEntry]
        var completing: TaskSyncState?
        var announce: SyncProgress?
    }

    func pull(
        _ state: inout TaskSyncState, report: inout TaskSyncReport, progress: (@Sendable (SyncProgress) -> Void)?
    ) async throws(SyncError) {
        let pulling = PagedPull<Page, Stored>(
            fetch: { [client, retry, pageSize, partSize, first = state.cursor] cursor async throws(SyncError) in
                // The first page is one part long, so the cores start verifying after a short fetch.
                let limit = cursor == first ? min(pageSize, max(1, partSize)) : pageSize
                let data: Data
                do throws(AccountClientError) {
                    data = try await retry.run { () async throws(AccountClientError) in
                        try await client.pullNodes(after: cursor, limit: limit)
                    }
                } catch { throw .account(error) }
                return try Self.parse(data)
            },
            cursorAfter: { $0.hasMore && !$0.nodes.isEmpty ? $0.cursor : nil },
            store: { [editor, stateURL] stored throws(SyncError) in
                do {
                    try editor.log.appendReceived(stored.entries)
                    if let completing = stored.completing { try SyncStateFile.save(completing, to: stateURL) }
                } catch { throw .store(String(describing: error)) }
                if let step = stored.announce { progress?(step) }
                return stored.entries.count
            })
        try await pulling.run(after: state.cursor) { page, store throws(SyncError) in
            let more = page.hasMore && !page.nodes.isEmpty
            // A page is validated in parts so the cores take small steps, and stored in one
            // transaction: a commit rewrites every index page its rows touch (node ids, marks
            // and task ids are random keys), so four commits per page wrote about twice the
            // bytes of one. The last page is stored part by part, so after the last verify only
            // one part's insert is left. The cursor is saved with the page's last write, so a
            // resumed pull fetches a partly stored page again and the repeated nodes are
            // ignored by id.
            var pending: [LogEntry] = []
            var start = 0
            repeat {
                let end = min(start + max(1, partSize), page.nodes.count)
                pending += await Self.entries(Array(page.nodes[start..<end]), report: &report)
                start = end
                let pageDone = end == page.nodes.count
                guard pageDone || !more else { continue }
                report.pulled += pending.count
                if pageDone { state.cursor = page.cursor }
                let announce = pageDone && (page.hasMore || report.pulled > pageSize)
                try await store(
                    Stored(
                        entries: pending, completing: pageDone ? state : nil,
                        announce: announce
                            ? SyncProgress(kind: "tasks", received: report.pulled, hasMore: page.hasMore) : nil))
                pending = []
            } while start < page.nodes.count
        }
    }

    /// The valid nodes of `nodes` as log entries, in order; the others are counted as invalid.
    /// The canonical text the log stores is made beside each verify, on every core, not by the
    /// single writer after them.
    private static func entries(_ nodes: [JSONValue], report: inout TaskSyncReport) async -> [LogEntry] {
        var valid: [LogEntry] = []
        valid.reserveCapacity(nodes.count)
        for verdict in await validator.validateConcurrently(nodes, preparing: { try? LogEntry($0) }) {
            if case .success(let entry?) = verdict {
                valid.append(entry)
            } else {
                report.invalidReceived += 1
            }
        }
        return valid
    }
}
