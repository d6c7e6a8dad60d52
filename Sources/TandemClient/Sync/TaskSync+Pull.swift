import Foundation
import RedoProtocol

/// The pull half of ``TaskSync``, pipelined (issue 12 "Figures": a new device's 10,000-node pull
/// under 1 s). Three stages overlap: the request for page N+1 is in flight while page N is
/// validated, and page N-1 is written while page N is validated. Each page still gets every
/// check of spec §6.2 with its signature, pages are still stored in server order (a child's
/// page never lands before its parent's), and the cursor is saved only after its page is stored,
/// in the same order: an interrupted pull resumes exactly where the last stored page ended.
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
                var valid: [RedoNode] = []
                valid.reserveCapacity(page.nodes.count)
                for verdict in await Self.validator.validateConcurrently(page.nodes) {
                    if case .success(let node) = verdict {
                        valid.append(node)
                    } else {
                        report.invalidReceived += 1
                    }
                }
                // Pages are written one after another, in the order they came.
                if let previous = storing {
                    storing = nil
                    try await Self.outcome(of: previous)
                }
                report.pulled += valid.count
                state.cursor = page.cursor
                let step = SyncProgress(kind: "tasks", received: report.pulled, hasMore: page.hasMore)
                let announce = page.hasMore || report.pulled > pageSize
                let received = valid
                storing = Task { [editor, stateURL, state] in
                    try editor.log.appendReceived(received)
                    try SyncStateFile.save(state, to: stateURL)
                    if announce { progress?(step) }
                }
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
