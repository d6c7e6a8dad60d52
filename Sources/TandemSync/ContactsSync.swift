public import Contacts
public import Foundation
import TandemAPI
public import TandemAccounts

/// Syncs the wallet's contacts through the server as sealed records (issue 12 item 3, issue 7
/// "Sync records"): pull the records changed after the cursor, open and merge them (the store's
/// CRDT merge, so the order of arrival never matters), then push every record whose content
/// differs from what the server holds, naming the version it merged from. A 409 means another
/// device wrote first: pull, merge, push again — no accepted write is overwritten blindly.
public struct ContactsSync: Sendable, SyncEngine {
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
        var pulled: [ContactKey: PulledRecord] = [:]
        for _ in 0..<maxRounds {
            try await pull(&state, report: &report, pulled: &pulled, progress: progress)
            if try await push(&state, report: &report, pulled: pulled) { return report }
            report.conflicts += 1
        }
        throw .tooManyConflicts
    }

    /// Pushes changed records; false when the server answered 409 (nothing of that batch written).
    /// A stored record equal to one this sync pulled has that record's id and digest, so only the
    /// others are hashed again (issue 12 "Figures": after a 10,000-record pull, hashing every
    /// record once more was a tenth of the sync).
    private func push(
        _ state: inout ContactsSyncState, report: inout ContactsSyncReport, pulled: [ContactKey: PulledRecord]
    ) async throws(SyncError) -> Bool {
        let records = try local { try store.records(wallet: cipher.wallet) }
        var writes: [(write: ContactRecordWrite, digest: String)] = []
        for record in records {
            let id: String
            let digest: String
            if let seen = pulled[record.key], seen.record == record {
                (id, digest) = (seen.id, seen.digest)
            } else {
                (id, digest) = (cipher.recordID(for: record.key), record.syncDigest)
            }
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
