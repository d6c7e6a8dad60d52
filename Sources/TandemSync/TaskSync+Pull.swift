import CanonicalJSON
import Foundation
import RedoProtocol
import TandemAccounts
import TaskStore

/// The pull half of ``TaskSync``, pipelined (issue 12 "Figures": a new device's 10,000-node pull
/// under 1 s). Three stages overlap: the request for page N+1 is in flight while page N is
/// validated, and the writer stores what is validated while the next nodes are. Each node still
/// gets every check of spec §6.2 with its signature, writes are still made in server order (a
/// child's write never lands before its parent's), and the cursor is saved only with the write
/// that completes its page, in the same order: an interrupted pull resumes where the last stored
/// page ended.
extension TaskSync {
    /// Writes queued behind the one running before validation waits for the writer; bounds the
    /// validated pages held in memory.
    static let writesAhead = 2

    func pull(
        _ state: inout TaskSyncState, report: inout TaskSyncReport, progress: (@Sendable (SyncProgress) -> Void)?
    ) async throws(SyncError) {
        // The first page is one part long, so the cores start verifying after a short fetch.
        var fetching: Task<Data, any Error>? = fetch(after: state.cursor, limit: min(pageSize, max(1, partSize)))
        // Each write waits for the one before it, so writes land in order while validation
        // never waits for the writer (unless `writesAhead` writes are queued).
        var writes: [Task<Void, any Error>] = []
        do {
            while let request = fetching {
                fetching = nil
                let page = try Self.parse(try await Self.outcome(of: request))
                let more = page.hasMore && !page.nodes.isEmpty
                if more { fetching = fetch(after: page.cursor, limit: pageSize) }
                // A page is validated in parts so the cores take small steps, and stored in one
                // transaction: a commit rewrites every index page its rows touch (node ids,
                // marks and task ids are random keys), so four commits per page wrote about
                // twice the bytes of one. The last page is stored part by part, so after the
                // last verify only one part's insert is left. The cursor is saved with the
                // page's last write, so a resumed pull fetches a partly stored page again and
                // the repeated nodes are ignored by id.
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
                    let step = SyncProgress(kind: "tasks", received: report.pulled, hasMore: page.hasMore)
                    let announce = pageDone && (page.hasMore || report.pulled > pageSize)
                    if writes.count > Self.writesAhead { try await Self.outcome(of: writes.removeFirst()) }
                    writes.append(
                        Task { [editor, stateURL, state, valid = pending, previous = writes.last] in
                            try await previous?.value
                            try editor.log.appendReceived(valid)
                            guard pageDone else { return }
                            try SyncStateFile.save(state, to: stateURL)
                            if announce { progress?(step) }
                        })
                    pending = []
                } while start < page.nodes.count
            }
            // The last write waited for every one before it.
            if let last = writes.last { try await Self.outcome(of: last) }
        } catch {
            // Whatever was received before the failure is stored before the error surfaces.
            fetching?.cancel()
            if let last = writes.last { _ = await last.result }
            throw error
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

    /// Starts the request for the page after `cursor` (with the retry policy's backoff).
    private func fetch(after cursor: String?, limit: Int) -> Task<Data, any Error> {
        Task { [client, retry] in
            do throws(AccountClientError) {
                return try await retry.run { () async throws(AccountClientError) in
                    try await client.pullNodes(after: cursor, limit: limit)
                }
            } catch { throw SyncError.account(error) }
        }
    }

    /// The task's value as a ``SyncError``: its own when it threw one, a store error otherwise.
    private static func outcome<T>(of task: Task<T, any Error>) async throws(SyncError) -> T {
        switch await task.result {
        case .success(let value): return value
        case .failure(let error as SyncError): throw error
        case .failure(let error): throw .store(String(describing: error))
        }
    }
}
