public import Foundation
public import TandemAPI
public import TandemAccounts

extension SealedRecordCollection {
    /// The ``SyncProgress/kind`` of its pull.
    var progressKind: String {
        switch self {
        case .contacts: "contacts"
        case .taskPresets: "presets"
        case .chatHistory: "chat"
        }
    }
}

/// What every sealed-record sync state holds: the server and account its cursor belongs to.
protocol SealedRecordSyncState: Codable, Sendable {
    var server: String? { get set }
    var accountID: String? { get set }
    var cursor: String? { get set }
    /// The state file's bytes.
    func fileBytes() throws -> Data
}

extension SealedRecordSyncState {
    func fileBytes() throws -> Data { try SyncStateFile.bytes(of: self) }
}

/// What a sealed-record sync does after its pull and before its push.
enum SealedRecordStep {
    /// Push the records changed here.
    case push
    /// Another device wrote first: pull again.
    case conflict
    /// Nothing more this run.
    case finished
}

/// One sync of a sealed-record collection (issue 46 item 4), as the server's
/// `SealedRecordCollection` is one store of them: pull the records changed after the cursor (a
/// ``PagedPull``: each page read into the collection while the next is fetched, and what it
/// opened stored in order), settle what must be settled before writing, then push every record
/// changed here by compare-and-swap, naming the version it merged from. A 409 means another
/// device wrote first: pull, read, push again, at most `maxRounds` times. Contacts and task
/// presets are its two conformances; a third synced collection is a third, with its codec, merge
/// and state.
///
/// The state is saved with the page that completes it, after the last page, and before that
/// once as many records arrived as at the save before: the writes stay linear in the records,
/// and an interruption loses at most half of what a run received (records received again merge
/// to nothing). After a failed pull the state of the last stored page is saved before the
/// error surfaces.
protocol SealedRecordSync: SyncEngine, Sendable {
    associatedtype State: SealedRecordSyncState
    /// What a run carries from its pull to its push, and reports.
    associatedtype Run
    /// What reading a page hands the writer.
    associatedtype Opened: Sendable
    /// A record to write, with what the sync needs once the server took it.
    associatedtype Outgoing

    static var collection: SealedRecordCollection { get }
    var client: AccountClient { get }
    var stateURL: URL { get }
    var pageSize: Int { get }
    var batchSize: Int { get }
    var maxRounds: Int { get }

    /// The state of a server or account this collection was not synced with before (what was
    /// marked as held by another server is forgotten here).
    func freshState(server: String, accountID: String) throws(SyncError) -> State
    /// Whether a loaded state is this sync's; by default, the same server and account.
    func owns(_ state: State, server: String, accountID: String) -> Bool
    /// Reads one page into the state and the run; what it returns is stored next, in page order.
    func read(_ page: ContactRecordPage, state: inout State, run: inout Run) async throws(SyncError) -> Opened
    /// Applies what reading a page returned to the local store, and says how many local items
    /// it changed. Runs on the pull's writer, one page at a time.
    func apply(_ opened: Opened) throws(SyncError) -> Int
    /// What a pull's stores changed in all.
    func stored(_ changed: Int, run: inout Run)
    /// After each pull, before the push.
    func settle(state: inout State, run: inout Run) async throws(SyncError) -> SealedRecordStep
    /// The records changed here.
    func outgoing(state: State, run: Run) throws(SyncError) -> [Outgoing]
    /// The write of one outgoing record.
    func write(_ item: Outgoing, run: Run) throws(SyncError) -> ContactRecordWrite
    /// What the server answered for a written batch, in the batch's order.
    func written(
        _ items: ArraySlice<Outgoing>, answers: [ContactRecordsPutResponse.Written], state: inout State,
        run: inout Run) throws(SyncError)
    /// A version conflict was met and another round starts.
    func conflicted(_ run: inout Run)
}

extension SealedRecordSync {
    func stored(_ changed: Int, run: inout Run) {}

    func owns(_ state: State, server: String, accountID: String) -> Bool {
        state.server == server && state.accountID == accountID
    }

    /// The rounds of pull, settle and push for the account `accountID`, until the push goes
    /// through.
    func sync(_ run: inout Run, accountID: String, progress: (@Sendable (SyncProgress) -> Void)?)
        async throws(SyncError)
    {
        let server = client.server.absoluteString
        var state: State
        if let saved = try local({ try SyncStateFile.load(State.self, from: stateURL) }),
            owns(saved, server: server, accountID: accountID)
        {
            state = saved
        } else {
            state = try freshState(server: server, accountID: accountID)
        }
        for _ in 0..<maxRounds {
            try await pull(&state, run: &run, progress: progress)
            switch try await settle(state: &state, run: &run) {
            case .finished: return
            case .conflict:
                conflicted(&run)
                continue
            case .push: break
            }
            if try await push(&state, run: &run) { return }
            conflicted(&run)
        }
        throw .tooManyConflicts
    }

    func save(_ state: State) throws(SyncError) {
        try local { try SyncStateFile.save(bytes: try state.fileBytes(), to: stateURL) }
    }

    /// Writes records by compare-and-swap; nil when another device wrote one of them first.
    func put(_ writes: [ContactRecordWrite]) async throws(SyncError) -> [ContactRecordsPutResponse.Written]? {
        do {
            return try await retry.run { () async throws(AccountClientError) in
                try await client.putSealedRecords(writes, in: Self.collection)
            }
        } catch .server(409, let code?, _) where code == Self.collection.versionConflict {
            return nil
        } catch { throw .account(error) }
    }
}
