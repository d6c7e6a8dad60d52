public import ChatHistory
public import Foundation
import TandemAPI
public import TandemAccounts

/// Syncs a person's chat history between their devices (issue 48 item 1): a ``SealedRecordSync``
/// of the `chatHistory` collection whose records are the profile's messages — text, direction,
/// peer, status, times, transaction id and UUID — and deleted conversations, sealed with keys of
/// the wallet key (``ChatHistorySyncCipher``). A second device on the same seed gets every message
/// its person sent from another device, text included, merged by transaction id into what it read
/// from the chain or the relay, so each message is one row; a deleted conversation is deleted on
/// every device.
///
/// Records are pulled in pages of 1,000, opened on every core while the next page is fetched,
/// and merged one page per transaction; the push sends every record whose content differs from
/// what the server holds (``ChatHistoryStore/syncOutgoing()``) in batches of 500, each naming the
/// version it merged from, so a 409 means another device wrote first: pull, merge, push again.
/// Reactions and read marks do not travel: each device reads reactions from the chain, and reads
/// its own messages.
public struct ChatHistorySync: Sendable, SealedRecordSync {
    public let client: AccountClient
    public let history: ChatHistoryStore
    public let cipher: ChatHistorySyncCipher
    /// The wallet the history belongs to; a state kept for another is not this sync's.
    public let wallet: String
    let stateURL: URL
    public var retry = SyncRetryPolicy()
    public var pageSize = 1000
    public var batchSize = 500
    public var maxRounds = 8

    public init(
        client: AccountClient, history: ChatHistoryStore, cipher: ChatHistorySyncCipher, wallet: String, stateURL: URL
    ) {
        self.client = client
        self.history = history
        self.cipher = cipher
        self.wallet = wallet
        self.stateURL = stateURL
    }

    static let collection = SealedRecordCollection.chatHistory

    /// Where chat history sync stands: the server, account and wallet its cursor belongs to, and
    /// the versions of the records no key here opened (a newer client's, or damaged), so the next
    /// change here overwrites them rather than meeting a 409 forever.
    struct State: SealedRecordSyncState {
        var server: String?
        var accountID: String?
        var wallet: String?
        var cursor: String?
        var unreadable: [String: Int64]?
    }

    struct Run {
        var report = ChatHistorySyncReport()
    }

    public func run(progress: (@Sendable (SyncProgress) -> Void)? = nil) async throws(SyncError)
        -> ChatHistorySyncReport
    {
        let accountID = try await call { () async throws(AccountClientError) in try await client.accountID() }
        var run = Run()
        try await sync(&run, accountID: accountID, progress: progress)
        return run.report
    }

    /// A server, account or wallet synced for the first time: what the history held of another
    /// server is forgotten, so every record is pushed there.
    func freshState(server: String, accountID: String) throws(SyncError) -> State {
        try local { try history.syncForgetServer() }
        return State(server: server, accountID: accountID, wallet: wallet)
    }

    func owns(_ state: State, server: String, accountID: String) -> Bool {
        state.server == server && state.accountID == accountID && state.wallet == wallet
    }

    /// Opens a page on every core, in page order; a record that does not open is counted, and
    /// its version kept.
    func read(_ page: ContactRecordPage, state: inout State, run: inout Run) async -> [ChatHistoryStore.SyncPulled] {
        let opened = await ParallelOpen.map(page.records) { [cipher] entry -> ChatHistoryStore.SyncPulled? in
            guard let box = Data(base64Encoded: entry.box),
                let (record, plaintext) = cipher.open(id: entry.id, box: box)
            else { return nil }
            return ChatHistoryStore.SyncPulled(record: record, plaintext: plaintext, version: entry.version)
        }
        var pulled: [ChatHistoryStore.SyncPulled] = []
        pulled.reserveCapacity(page.records.count)
        for (entry, record) in zip(page.records, opened) {
            if let record {
                pulled.append(record)
                state.unreadable?[entry.id] = nil
            } else {
                run.report.unreadable += 1
                state.unreadable = (state.unreadable ?? [:]).merging([entry.id: entry.version]) { $1 }
            }
        }
        run.report.pulled += pulled.count
        return pulled
    }

    func apply(_ opened: [ChatHistoryStore.SyncPulled]) throws(SyncError) -> Int {
        try local { try history.syncMerge(opened) }
    }

    func stored(_ changed: Int, run: inout Run) { run.report.changed += changed }

    func settle(state: inout State, run: inout Run) -> SealedRecordStep { .push }

    func conflicted(_ run: inout Run) { run.report.conflicts += 1 }

    /// A record to push under its id, over the version the server holds (one no key here opened
    /// included).
    struct Outgoing {
        let change: ChatHistoryStore.SyncOutgoing
        let id: String
        let baseVersion: Int64
    }

    func outgoing(state: State, run: Run) throws(SyncError) -> [Outgoing] {
        try local { try history.syncOutgoing() }.map { change in
            let id = cipher.recordID(for: change.record.key)
            return Outgoing(change: change, id: id, baseVersion: state.unreadable?[id] ?? change.baseVersion)
        }
    }

    func write(_ item: Outgoing, run: Run) throws(SyncError) -> ContactRecordWrite {
        let box = try local { try cipher.seal(item.change.plaintext, id: item.id) }
        return ContactRecordWrite(id: item.id, box: box.base64EncodedString(), baseVersion: item.baseVersion)
    }

    func written(
        _ items: ArraySlice<Outgoing>, answers: [ContactRecordsPutResponse.Written], state: inout State,
        run: inout Run
    ) throws(SyncError) {
        try local {
            try history.syncPushed(zip(items, answers).map { ($0.change, $1.version) })
        }
        for answer in answers { state.unreadable?[answer.id] = nil }
        run.report.pushed += answers.count
    }
}

/// What one chat history sync did: the members of a contacts sync's report, counted in records
/// and rows — `changed` counts the history rows the received records added, changed or deleted,
/// and `unreadable` the records this wallet's key does not open (another wallet's, a newer
/// client's, or damaged).
public typealias ChatHistorySyncReport = ContactsSyncReport
