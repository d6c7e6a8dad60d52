import CanonicalJSON
import Foundation
import RedoProtocol
import TaskStore

/// The pull half of ``TaskSync``, pipelined (issue 12 "Figures": a new device's 10,000-node pull
/// under 1 s). Three stages overlap: the request for page N+1 is in flight while page N is
/// validated, and each part of a page is written while the next part is validated. Each node
/// still gets every check of spec §6.2 with its signature, parts are still stored in server
/// order (a child's part never lands before its parent's), and the cursor is saved only after its
/// page is stored, in the same order: an interrupted pull resumes where the last stored page ended.
extension TaskSync {
    func pull(
        _ state: inout TaskSyncState, report: inout TaskSyncReport, progress: (@Sendable (SyncProgress) -> Void)?
    ) async throws(SyncError) {
        var fetching: Task<Data, any Error>? = fetch(after: state.cursor)
        var storing: Task<Void, any Error>?
        do {
            while let request = fetching {
                fetching = nil
                let page = try Self.parse(try await Self.outcome(of: request))
                let more = page.hasMore && !page.nodes.isEmpty
                if more { fetching = fetch(after: page.cursor) }
                // A page is validated and stored in parts: the writer starts on the first part
                // while the rest is verified, and after the last verify only one part's insert is
                // left. The cursor is saved with the page's last part, so a resumed pull fetches a
                // partly stored page again and the repeated nodes are ignored by id.
                var start = 0
                repeat {
                    let end = min(start + max(1, partSize), page.nodes.count)
                    let valid = await Self.entries(Array(page.nodes[start..<end]), report: &report)
                    // Parts are written one after another, in the order they came.
                    if let previous = storing {
                        storing = nil
                        try await Self.outcome(of: previous)
                    }
                    report.pulled += valid.count
                    let pageDone = end == page.nodes.count
                    if pageDone { state.cursor = page.cursor }
                    let step = SyncProgress(kind: "tasks", received: report.pulled, hasMore: page.hasMore)
                    let announce = pageDone && (page.hasMore || report.pulled > pageSize)
                    storing = Task { [editor, stateURL, state] in
                        try editor.log.appendReceived(valid)
                        guard pageDone else { return }
                        try SyncStateFile.save(state, to: stateURL)
                        if announce { progress?(step) }
                    }
                    start = end
                } while start < page.nodes.count
            }
            if let last = storing {
                storing = nil
                try await Self.outcome(of: last)
            }
        } catch {
            // Whatever was received before the failure is stored before the error surfaces.
            fetching?.cancel()
            if let last = storing { _ = await last.result }
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
    private func fetch(after cursor: String?) -> Task<Data, any Error> {
        Task { [client, retry, pageSize] in
            do throws(AccountClientError) {
                return try await retry.run { () async throws(AccountClientError) in
                    try await client.pullNodes(after: cursor, limit: pageSize)
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
