public import Contacts
public import Foundation
import TandemAPI
public import TandemAccounts

/// Syncs the wallet's contacts through the server as sealed records (issue 12 item 3, issue 7
/// "Sync records"): a ``SealedRecordSync`` whose records are contacts sealed with the wallet key,
/// merged by the store's CRDT merge (so the order of arrival never matters). A push sends every
/// record whose content differs from what the server holds, naming the version it merged from;
/// a 409 means another device wrote first: pull, merge, push again — no accepted write is
/// overwritten blindly.
public struct ContactsSync: Sendable, SealedRecordSync {
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

    static let collection = SealedRecordCollection.contacts

    /// What a run carries: its report, and every record it pulled, with its blob id and digest.
    struct Run {
        var report = ContactsSyncReport()
        var pulled: [ContactKey: PulledRecord] = [:]
    }

    public func run(progress: (@Sendable (SyncProgress) -> Void)? = nil) async throws(SyncError)
        -> ContactsSyncReport
    {
        let accountID = try await call { () async throws(AccountClientError) in try await client.accountID() }
        var run = Run()
        try await sync(&run, accountID: accountID, progress: progress)
        return run.report
    }

    func freshState(server: String, accountID: String) -> ContactsSyncState {
        var state = ContactsSyncState()
        state.server = server
        state.accountID = accountID
        state.wallet = cipher.wallet.description
        return state
    }

    /// A state is this sync's for the same server, account and wallet.
    func owns(_ state: ContactsSyncState, server: String, accountID: String) -> Bool {
        state.server == server && state.accountID == accountID && state.wallet == cipher.wallet.description
    }

    func settle(state: inout ContactsSyncState, run: inout Run) -> SealedRecordStep { .push }

    func conflicted(_ run: inout Run) { run.report.conflicts += 1 }

    func stored(_ changed: Int, run: inout Run) { run.report.changed += changed }

    /// Every stored record whose content differs from what the server holds. A stored record
    /// equal to one this sync pulled has that record's id and digest, so only the others are
    /// hashed again (issue 12 "Figures": after a 10,000-record pull, hashing every record once
    /// more was a tenth of the sync).
    func outgoing(state: ContactsSyncState, run: Run) throws(SyncError) -> [(write: ContactRecordWrite, digest: String)]
    {
        let records = try local { try store.records(wallet: cipher.wallet) }
        var writes: [(write: ContactRecordWrite, digest: String)] = []
        for record in records {
            let id: String
            let digest: String
            if let seen = run.pulled[record.key], seen.record == record {
                (id, digest) = (seen.id, seen.digest)
            } else {
                (id, digest) = (cipher.recordID(for: record.key), record.syncDigest)
            }
            guard state.digests[id] != digest else { continue }
            let blob = try local { try cipher.seal(record) }
            let write = ContactRecordWrite(
                id: id, box: blob.box.base64EncodedString(), baseVersion: state.versions[id] ?? 0)
            writes.append((write, digest))
        }
        return writes
    }

    func write(_ item: (write: ContactRecordWrite, digest: String), run: Run) -> ContactRecordWrite {
        item.write
    }

    func written(
        _ items: ArraySlice<(write: ContactRecordWrite, digest: String)>, answers: [ContactRecordsPutResponse.Written],
        state: inout ContactsSyncState, run: inout Run
    ) {
        for (item, answer) in zip(items, answers) {
            state.versions[answer.id] = answer.version
            state.digests[answer.id] = item.digest
        }
        run.report.pushed += answers.count
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
