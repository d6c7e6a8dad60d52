public import Foundation
import RedoProtocol
import TandemAPI
public import TandemAccounts
public import TaskStore

/// Syncs the profile's saved task filters through the server as sealed records (issue 27 item
/// 3, issue 28): pull the records changed after the cursor; settle the account's presets key
/// from the key records among them (``PresetKeyring``: publish this device's slot, name the key
/// if nobody has, wrap it for devices that lack it); merge each preset record (last writer wins
/// per record, so the order of arrival never matters); then push every record changed here,
/// naming the version it merged from. A 409 means another device wrote first: pull, merge, push
/// again.
///
/// Without the key yet (a device with no wallet key, before a device holding the key has run),
/// the slot is published and the presets wait: their records are kept, unread, for the run that
/// has the key. Records sealed before issue 28 (with the wallet key) are read and sealed again
/// with the account's key.
public struct PresetSync: Sendable, SealedRecordSync {
    public let client: AccountClient
    public let presets: TaskPresets
    public let keyring: PresetKeyring
    let stateURL: URL
    public var retry = SyncRetryPolicy()
    public var pageSize = 500
    public var batchSize = 500
    /// Pull-merge-push rounds before giving up on records other devices keep rewriting.
    public var maxRounds = 8

    public init(client: AccountClient, presets: TaskPresets, keyring: PresetKeyring, stateURL: URL) {
        self.client = client
        self.presets = presets
        self.keyring = keyring
        self.stateURL = stateURL
    }

    static let collection = SealedRecordCollection.taskPresets

    /// Where preset sync stands: the server and account the cursor belongs to, every key record,
    /// and the preset records not read yet (no key so far).
    struct State: SealedRecordSyncState {
        var server: String?
        var accountID: String?
        var cursor: String?
        var keyRecords: [String: Held]?
        var unread: [String: Held]?
    }

    struct Held: Codable {
        var version: Int64
        var box: String
    }

    /// What a run carries: its report, the account's live device keys, and the cipher of the
    /// account's presets key once settled.
    struct Run {
        var report = PresetSyncReport()
        let accountID: String
        let accountKeys: Set<String>
        var cipher: PresetSyncCipher?
    }

    public func run() async throws(SyncError) -> PresetSyncReport {
        let accountID = try await call { () async throws(AccountClientError) in try await client.accountID() }
        var run = Run(accountID: accountID, accountKeys: try await deviceKeys(accountID: accountID))
        try await sync(&run, accountID: accountID, progress: nil)
        return run.report
    }

    func freshState(server: String, accountID: String) throws(SyncError) -> State {
        try local { try presets.forgetServer() }
        return State(server: server, accountID: accountID)
    }

    /// Keeps a page's records in the state, key records apart; preset records are read once the
    /// key is settled.
    func read(_ page: ContactRecordPage, state: inout State, run: inout Run) {
        for record in page.records {
            let held = Held(version: record.version, box: record.box)
            if let box = Data(base64Encoded: record.box), PresetKeyring.Record.hasMagic(box) {
                state.keyRecords = (state.keyRecords ?? [:]).merging([record.id: held]) { $1 }
            } else {
                state.unread = (state.unread ?? [:]).merging([record.id: held]) { $1 }
            }
        }
    }

    func apply(_ opened: Void) -> Int { 0 }

    /// Settles the account's presets key from the key records (``PresetKeyring``), then reads
    /// the preset records kept unread with it.
    func settle(state: inout State, run: inout Run) async throws(SyncError) -> SealedRecordStep {
        let resolution = keyring.resolve(
            records: keyRecords(state), accountID: run.accountID, accountKeys: run.accountKeys)
        if !resolution.writes.isEmpty {
            guard try await writeKeyRecords(resolution.writes, state: &state) else { return .conflict }
        }
        guard let key = resolution.key else {
            run.report.waitingForKey = true
            try save(state)
            return .finished
        }
        let cipher = PresetSyncCipher(accountKey: key)
        try merge(&state, cipher: cipher, report: &run.report)
        run.cipher = cipher
        return .push
    }

    func conflicted(_ run: inout Run) { run.report.conflicts += 1 }

    func outgoing(state: State, run: Run) throws(SyncError) -> [TaskPresets.Outgoing] {
        try local { try presets.outgoing() }
    }

    func write(_ item: TaskPresets.Outgoing, run: Run) throws(SyncError) -> ContactRecordWrite {
        try local {
            guard let cipher = run.cipher else { throw SyncError.store("no presets key") }
            return ContactRecordWrite(
                id: item.preset.id, box: try cipher.seal(item.preset).base64EncodedString(),
                baseVersion: item.baseVersion)
        }
    }

    func written(
        _ items: ArraySlice<TaskPresets.Outgoing>, answers: [ContactRecordsPutResponse.Written], state: inout State,
        run: inout Run
    ) throws(SyncError) {
        for (item, answer) in zip(items, answers) {
            try local { try presets.pushed(item.preset, version: answer.version) }
        }
        run.report.pushed += answers.count
    }

    /// The account's device keys; this device's is registered first when the server lacks it,
    /// so other devices vouch for its slot.
    private func deviceKeys(accountID: String) async throws(SyncError) -> Set<String> {
        var keys = try await call { () async throws(AccountClientError) in try await client.deviceKeys() }
        let own = keyring.deviceKey.publicKey.description
        if !keys.contains(where: { $0.publicKey.lowercased() == own }) {
            _ = try await call { () async throws(AccountClientError) in
                try await client.registerDeviceKey(keyring.deviceKey, accountID: accountID)
            }
            keys = try await call { () async throws(AccountClientError) in try await client.deviceKeys() }
        }
        // Only live keys vouch for a device's slot: a revoked device gets no key wrapped for it.
        return Set(keys.filter { $0.revokedAt == nil }.map { $0.publicKey.lowercased() })
    }

    private func keyRecords(_ state: State) -> [String: (version: Int64, record: PresetKeyring.Record)] {
        var records: [String: (version: Int64, record: PresetKeyring.Record)] = [:]
        for (id, held) in state.keyRecords ?? [:] {
            let box = Data(base64Encoded: held.box)
            records[id] = (held.version, box.flatMap(PresetKeyring.Record.parse) ?? PresetKeyring.Record.unknown)
        }
        return records
    }

    /// Writes key records; false on a version conflict (another device wrote first).
    private func writeKeyRecords(
        _ writes: [(id: String, record: PresetKeyring.Record, replacing: Int64)], state: inout State
    ) async throws(SyncError) -> Bool {
        let drafts: [ContactRecordWrite]
        do {
            drafts = try writes.map {
                ContactRecordWrite(id: $0.id, box: try $0.record.box().base64EncodedString(), baseVersion: $0.replacing)
            }
        } catch { throw .store(String(describing: error)) }
        guard let written = try await put(drafts) else { return false }
        for (draft, answer) in zip(drafts, written) {
            state.keyRecords = (state.keyRecords ?? [:]).merging([
                draft.id: Held(version: answer.version, box: draft.box)
            ]) { $1 }
        }
        try save(state)
        return true
    }

    /// Reads the records kept unread: with the account's key, else (records from before issue
    /// 28) with the wallet's, then sealed again; a record neither opens is counted unreadable and
    /// overwritten by the next change here.
    private func merge(_ state: inout State, cipher: PresetSyncCipher, report: inout PresetSyncReport)
        throws(SyncError)
    {
        let legacy = keyring.walletKey.map(PresetSyncCipher.init(legacyWalletKey:))
        for (id, held) in (state.unread ?? [:]).sorted(by: { $0.key < $1.key }) {
            let box = Data(base64Encoded: held.box)
            if let box, let preset = cipher.open(id: id, box: box) {
                try local { try presets.merge(preset, version: held.version) }
                report.pulled += 1
            } else if let box, let preset = legacy?.open(id: id, box: box) {
                try local {
                    try presets.merge(preset, version: held.version)
                    try presets.markChanged(id)
                }
                report.pulled += 1
                report.resealed += 1
            } else {
                report.unreadable += 1
                try local { try presets.serverHolds(id, version: held.version) }
            }
            state.unread?[id] = nil
        }
        try save(state)
    }
}

/// What one preset sync did.
public struct PresetSyncReport: Sendable, Equatable, Codable {
    /// Records read and merged.
    public var pulled = 0
    /// Records written.
    public var pushed = 0
    /// Records no key here opens (a newer client's, or damaged); overwritten by the next change.
    public var unreadable = 0
    /// Version conflicts met and merged.
    public var conflicts = 0
    /// Records from before issue 28 (sealed with the wallet key) sealed again with the account's key.
    public var resealed = 0
    /// The account's presets key is not here yet: another device holding it must sync first.
    public var waitingForKey = false

    public init() {}

    /// What a report with ``waitingForKey`` says.
    public static let waitingNote =
        "waiting for the account's presets key: it arrives once a device that has it (one with the wallet key) syncs"
}
