import Contacts
import Foundation
import TandemAPI
import TandemAccounts

/// The pull half of ``ContactsSync``, pipelined (issue 12 "Figures": a new device's full sync of
/// 10,000 records under 1 s). Three stages overlap: the request for page N+1 is in flight while
/// page N is opened on every core, and page N−1 is merged and its state saved meanwhile. Every
/// record still gets the full check of ``ContactsSyncCipher/open(_:)``; pages are still merged,
/// and the cursor saved, one after another in server order, so an interrupted pull resumes
/// after a merged page (the last one saved), and a failed request surfaces only after the pages
/// before it are merged.
extension ContactsSync {
    /// A record this sync received, with its blob id and the digest of its content: the push
    /// skips hashing a stored record that still equals it.
    struct PulledRecord: Sendable {
        let id: String
        let record: ContactRecord
        let digest: String
    }

    /// Pulls every page after the cursor; `pulled` gains every record opened.
    func pull(
        _ state: inout ContactsSyncState, report: inout ContactsSyncReport, pulled: inout [ContactKey: PulledRecord],
        progress: (@Sendable (SyncProgress) -> Void)?
    ) async throws(SyncError) {
        var fetching: Task<ContactRecordPage, any Error>? = fetch(after: state.cursor)
        var storing: Task<Int, any Error>?
        var savedRecords = state.versions.count
        var receivedSinceSave = 0
        do {
            while let request = fetching {
                fetching = nil
                let page = try await Self.outcome(of: request)
                if page.hasMore && !page.records.isEmpty { fetching = fetch(after: page.cursor) }
                var opened: [ContactRecord] = []
                opened.reserveCapacity(page.records.count)
                for (entry, record) in zip(page.records, await Self.open(page.records, with: cipher)) {
                    guard let record else {
                        report.unreadable += 1
                        continue
                    }
                    opened.append(record.record)
                    state.versions[entry.id] = entry.version
                    state.digests[entry.id] = record.digest
                    pulled[record.record.key] = record
                }
                // Pages are merged one after another, in the order they came.
                if let previous = storing {
                    storing = nil
                    report.changed += try await Self.outcome(of: previous)
                }
                report.pulled += opened.count
                state.cursor = page.cursor
                let step = SyncProgress(kind: "contacts", received: report.pulled, hasMore: page.hasMore)
                let announce = page.hasMore || report.pulled > pageSize
                // The file holds every record's version and digest, so saving it after each of
                // ten pages wrote 55,000 entries for 10,000 records. It is saved after the last
                // page, and before that once as many records arrived as the file held: an
                // interruption loses at most half of what was received (merged records are
                // pulled again and merge to nothing), and the writes stay linear in the records.
                receivedSinceSave += page.records.count
                let last = fetching == nil
                let save = last || receivedSinceSave >= max(savedRecords, 1)
                if save {
                    savedRecords = state.versions.count
                    receivedSinceSave = 0
                }
                storing = Task { [store, stateURL, state] in
                    let changed = try store.merge(opened).count
                    if save { try SyncStateFile.save(bytes: try state.fileBytes(), to: stateURL) }
                    if announce { progress?(step) }
                    return changed
                }
            }
            if let last = storing {
                storing = nil
                report.changed += try await Self.outcome(of: last)
            }
        } catch {
            // Whatever was received before the failure is merged, and its state saved, before
            // the error surfaces. A request fails before its page is opened, so the state then
            // describes exactly the pages merged; after a failed merge nothing more is saved.
            fetching?.cancel()
            if let last = storing, case .success = await last.result {
                try? SyncStateFile.save(bytes: try state.fileBytes(), to: stateURL)
            }
            throw error
        }
    }

    /// Starts the request for the page after `cursor` (with the retry policy's backoff).
    private func fetch(after cursor: String?) -> Task<ContactRecordPage, any Error> {
        Task { [client, retry, pageSize] in
            do throws(AccountClientError) {
                return try await retry.run { () async throws(AccountClientError) in
                    try await client.contactRecords(after: cursor, limit: pageSize)
                }
            } catch { throw SyncError.account(error) }
        }
    }

    /// Opens a page's records on every core (issue 12 "Figures"), in page order; nil for a record
    /// that does not open with this wallet's key. Each gets the full check of
    /// ``ContactsSyncCipher/open(_:)``, and its digest is taken beside the open. The page is cut
    /// into several parts per core, so a core that is busy merging the previous page takes fewer.
    static func open(_ entries: [ContactRecordEntry], with cipher: ContactsSyncCipher) async -> [PulledRecord?] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let parts = max(1, min(cores * 4, entries.count / 32))
        guard parts > 1 else { return entries.map { openOne($0, with: cipher) } }
        let chunk = (entries.count + parts - 1) / parts
        return await withTaskGroup(of: (Int, [PulledRecord?]).self) { group in
            for start in stride(from: 0, to: entries.count, by: chunk) {
                let part = Array(entries[start..<min(start + chunk, entries.count)])
                group.addTask { (start, part.map { openOne($0, with: cipher) }) }
            }
            var records = [PulledRecord?](repeating: nil, count: entries.count)
            for await (start, part) in group {
                for (offset, record) in part.enumerated() { records[start + offset] = record }
            }
            return records
        }
    }

    private static func openOne(_ entry: ContactRecordEntry, with cipher: ContactsSyncCipher) -> PulledRecord? {
        guard let box = Data(base64Encoded: entry.box),
            let record = try? cipher.open(ContactSyncBlob(id: entry.id, box: box))
        else { return nil }
        return PulledRecord(id: entry.id, record: record, digest: record.syncDigest)
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
