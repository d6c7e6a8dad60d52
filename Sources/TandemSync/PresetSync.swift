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
public struct PresetSync: Sendable, SyncEngine {
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

    /// Where preset sync stands: the server and account the cursor belongs to, every key record,
    /// and the preset records not read yet (no key so far).
    struct State: Codable {
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

    public func run() async throws(SyncError) -> PresetSyncReport {
        var state = try local { try SyncStateFile.load(State.self, from: stateURL, fresh: State()) }
        let accountID = try await call { () async throws(AccountClientError) in try await client.accountID() }
        let server = client.server.absoluteString
        if state.server != server || state.accountID != accountID {
            try local { try presets.forgetServer() }
            state = State(server: server, accountID: accountID)
        }
        let accountKeys = try await deviceKeys(accountID: accountID)
        var report = PresetSyncReport()
        for _ in 0..<maxRounds {
            try await pull(&state)
            let resolution = keyring.resolve(
                records: keyRecords(state), accountID: accountID, accountKeys: accountKeys)
            if !resolution.writes.isEmpty {
                guard try await writeKeyRecords(resolution.writes, state: &state) else {
                    report.conflicts += 1
                    continue
                }
            }
            guard let key = resolution.key else {
                report.waitingForKey = true
                try save(state)
                return report
            }
            try merge(&state, cipher: PresetSyncCipher(accountKey: key), report: &report)
            if try await push(PresetSyncCipher(accountKey: key), report: &report) { return report }
            report.conflicts += 1
        }
        throw .tooManyConflicts
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

    /// Every record changed after the cursor: key records and preset records are kept in the
    /// state, with the cursor, page by page.
    private func pull(_ state: inout State) async throws(SyncError) {
        while true {
            let cursor = state.cursor
            let page = try await call { () async throws(AccountClientError) in
                try await client.presetRecords(after: cursor, limit: pageSize)
            }
            for record in page.records {
                let held = Held(version: record.version, box: record.box)
                if let box = Data(base64Encoded: record.box), PresetKeyring.Record.hasMagic(box) {
                    state.keyRecords = (state.keyRecords ?? [:]).merging([record.id: held]) { $1 }
                } else {
                    state.unread = (state.unread ?? [:]).merging([record.id: held]) { $1 }
                }
            }
            state.cursor = page.cursor
            try save(state)
            if !page.hasMore || page.records.isEmpty { return }
        }
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

    private func push(_ cipher: PresetSyncCipher, report: inout PresetSyncReport) async throws(SyncError) -> Bool {
        let outgoing = try local { try presets.outgoing() }
        var start = 0
        while start < outgoing.count {
            let batch = Array(outgoing[start..<min(start + batchSize, outgoing.count)])
            let writes = try local {
                try batch.map {
                    ContactRecordWrite(
                        id: $0.preset.id, box: try cipher.seal($0.preset).base64EncodedString(),
                        baseVersion: $0.baseVersion)
                }
            }
            guard let written = try await put(writes) else { return false }
            for (item, answer) in zip(batch, written) {
                try local { try presets.pushed(item.preset, version: answer.version) }
            }
            report.pushed += written.count
            start += batch.count
        }
        return true
    }

    /// Writes records by compare-and-swap; nil when another device wrote one of them first.
    private func put(_ writes: [ContactRecordWrite]) async throws(SyncError) -> [ContactRecordsPutResponse.Written]? {
        do {
            return try await retry.run { () async throws(AccountClientError) in
                try await client.putPresetRecords(writes)
            }
        } catch .server(409, .presetVersionConflict?, _) {
            return nil
        } catch { throw .account(error) }
    }

    private func save(_ state: State) throws(SyncError) {
        try local { try SyncStateFile.save(state, to: stateURL) }
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
