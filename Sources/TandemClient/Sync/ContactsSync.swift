public import Contacts
public import Foundation
public import TandemAPI

/// Syncs the wallet's contacts through the server as sealed records (issue 12 item 3, issue 7
/// "Sync records"): pull the records changed after the cursor, open and merge them (the store's
/// CRDT merge, so the order of arrival never matters), then push every record whose content
/// differs from what the server holds, naming the version it merged from. A 409 means another
/// device wrote first: pull, merge, push again — no accepted write is overwritten blindly.
public struct ContactsSync: Sendable {
    public let client: AccountClient
    public let store: ContactsStore
    public let cipher: ContactsSyncCipher
    let stateURL: URL
    public var retry = SyncRetryPolicy()
    public var pageSize = 1000
    public var batchSize = 500
    /// Pull-merge-push rounds before giving up on a record other devices keep rewriting.
    public var maxRounds = 8

    public init(client: AccountClient, store: ContactsStore, cipher: ContactsSyncCipher, stateURL: URL) {
        self.client = client
        self.store = store
        self.cipher = cipher
        self.stateURL = stateURL
    }

    public func run(progress: (@Sendable (SyncProgress) -> Void)? = nil) async throws(SyncError)
        -> ContactsSyncReport
    {
        var state = try local { try SyncStateFile.load(ContactsSyncState.self, from: stateURL, fresh: .init()) }
        let accountID = try await call { () async throws(AccountClientError) in try await client.accountID() }
        let server = client.server.absoluteString
        let wallet = cipher.wallet.description
        if state.server != server || state.accountID != accountID || state.wallet != wallet {
            state = ContactsSyncState()
            state.server = server
            state.accountID = accountID
            state.wallet = wallet
        }
        var report = ContactsSyncReport()
        for _ in 0..<maxRounds {
            try await pull(&state, report: &report, progress: progress)
            if try await push(&state, report: &report) { return report }
            report.conflicts += 1
        }
        throw .tooManyConflicts
    }

    /// Pulls every page after the cursor. The request for the next page is in flight while the
    /// current one is opened and merged (issue 12 "Figures"); pages are still merged, and the
    /// cursor saved, one after another in server order.
    private func pull(
        _ state: inout ContactsSyncState, report: inout ContactsSyncReport,
        progress: (@Sendable (SyncProgress) -> Void)?
    ) async throws(SyncError) {
        var fetching: Task<ContactRecordPage, any Error>? = fetch(after: state.cursor)
        defer { fetching?.cancel() }
        while let request = fetching {
            fetching = nil
            let page: ContactRecordPage
            switch await request.result {
            case .success(let value): page = value
            case .failure(let error as SyncError): throw error
            case .failure(let error): throw .store(String(describing: error))
            }
            if page.hasMore && !page.records.isEmpty { fetching = fetch(after: page.cursor) }
            var opened: [ContactRecord] = []
            for (entry, record) in zip(page.records, await Self.open(page.records, with: cipher)) {
                guard let record else {
                    report.unreadable += 1
                    continue
                }
                opened.append(record)
                state.versions[entry.id] = entry.version
                state.digests[entry.id] = record.syncDigest
            }
            report.changed += try local { try store.merge(opened).count }
            report.pulled += opened.count
            state.cursor = page.cursor
            try local { try SyncStateFile.save(bytes: try state.fileBytes(), to: stateURL) }
            if page.hasMore || report.pulled > pageSize {
                progress?(SyncProgress(kind: "contacts", received: report.pulled, hasMore: page.hasMore))
            }
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

    /// Pushes changed records; false when the server answered 409 (nothing of that batch written).
    private func push(_ state: inout ContactsSyncState, report: inout ContactsSyncReport) async throws(SyncError)
        -> Bool
    {
        let records = try local { try store.records(wallet: cipher.wallet) }
        var writes: [(write: ContactRecordWrite, digest: String)] = []
        for record in records {
            let id = cipher.recordID(for: record.key)
            let digest = record.syncDigest
            guard state.digests[id] != digest else { continue }
            let blob = try local { try cipher.seal(record) }
            writes.append(
                (
                    ContactRecordWrite(
                        id: id, box: blob.box.base64EncodedString(), baseVersion: state.versions[id] ?? 0), digest
                ))
        }
        var start = 0
        while start < writes.count {
            let batch = Array(writes[start..<min(start + batchSize, writes.count)])
            let written: [ContactRecordsPutResponse.Written]
            do {
                written = try await retry.run { () async throws(AccountClientError) in
                    try await client.putContactRecords(batch.map(\.write))
                }
            } catch .server(409, .contactVersionConflict?, _) {
                return false
            } catch { throw .account(error) }
            for (item, answer) in zip(batch, written) {
                state.versions[answer.id] = answer.version
                state.digests[answer.id] = item.digest
            }
            report.pushed += written.count
            try local { try SyncStateFile.save(bytes: try state.fileBytes(), to: stateURL) }
            start += batch.count
        }
        return true
    }

    /// Opens a page's records on every core (issue 12 "Figures"), in page order; nil for a record
    /// that does not open with this wallet's key. Each gets the full check of
    /// ``ContactsSyncCipher/open(_:)``.
    static func open(_ entries: [ContactRecordEntry], with cipher: ContactsSyncCipher) async -> [ContactRecord?] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, entries.count / 32))
        guard workers > 1 else { return entries.map { openOne($0, with: cipher) } }
        let chunk = (entries.count + workers - 1) / workers
        return await withTaskGroup(of: (Int, [ContactRecord?]).self) { group in
            for start in stride(from: 0, to: entries.count, by: chunk) {
                let part = Array(entries[start..<min(start + chunk, entries.count)])
                group.addTask { (start, part.map { openOne($0, with: cipher) }) }
            }
            var records = [ContactRecord?](repeating: nil, count: entries.count)
            for await (start, part) in group {
                for (offset, record) in part.enumerated() { records[start + offset] = record }
            }
            return records
        }
    }

    private static func openOne(_ entry: ContactRecordEntry, with cipher: ContactsSyncCipher) -> ContactRecord? {
        guard let box = Data(base64Encoded: entry.box) else { return nil }
        return try? cipher.open(ContactSyncBlob(id: entry.id, box: box))
    }

    private func call<T>(_ request: () async throws(AccountClientError) -> T) async throws(SyncError) -> T {
        do { return try await retry.run(request) } catch { throw .account(error) }
    }

    private func local<T>(_ body: () throws -> T) throws(SyncError) -> T {
        do { return try body() } catch { throw .store(String(describing: error)) }
    }
}

/// What one contacts sync did.
public struct ContactsSyncReport: Sendable, Equatable, Codable {
    /// Records received and opened.
    public var pulled = 0
    /// Local contacts the received records changed.
    public var changed = 0
    /// Records written to the server.
    public var pushed = 0
    /// Records that did not open with this wallet's key (another wallet's, or damaged).
    public var unreadable = 0
    /// 409s resolved by pulling and merging again.
    public var conflicts = 0

    public init() {}
}
