public import Foundation
import TandemAPI
public import TaskStore

/// Syncs the profile's saved task filters through the server as sealed records (issue 27 item
/// 3): pull the records changed after the cursor and merge each (last writer wins per record, so
/// the order of arrival never matters), then push every record changed here, naming the version
/// it merged from. A 409 means another device wrote first: pull, merge, push again.
public struct PresetSync: Sendable, SyncEngine {
    public let client: AccountClient
    public let presets: TaskPresets
    public let cipher: PresetSyncCipher
    let stateURL: URL
    public var retry = SyncRetryPolicy()
    public var pageSize = 500
    public var batchSize = 500
    /// Pull-merge-push rounds before giving up on records other devices keep rewriting.
    public var maxRounds = 8

    public init(client: AccountClient, presets: TaskPresets, cipher: PresetSyncCipher, stateURL: URL) {
        self.client = client
        self.presets = presets
        self.cipher = cipher
        self.stateURL = stateURL
    }

    /// Where preset sync stands: the server and account the cursor belongs to.
    struct State: Codable {
        var server: String?
        var accountID: String?
        var cursor: String?
    }

    public func run() async throws(SyncError) -> PresetSyncReport {
        var state = try local { try SyncStateFile.load(State.self, from: stateURL, fresh: State()) }
        let accountID = try await call { () async throws(AccountClientError) in try await client.accountID() }
        let server = client.server.absoluteString
        if state.server != server || state.accountID != accountID {
            try local { try presets.forgetServer() }
            state = State(server: server, accountID: accountID, cursor: nil)
        }
        var report = PresetSyncReport()
        for _ in 0..<maxRounds {
            try await pull(&state, report: &report)
            if try await push(&report) { return report }
            report.conflicts += 1
        }
        throw .tooManyConflicts
    }

    private func pull(_ state: inout State, report: inout PresetSyncReport) async throws(SyncError) {
        while true {
            let cursor = state.cursor
            let page = try await call { () async throws(AccountClientError) in
                try await client.presetRecords(after: cursor, limit: pageSize)
            }
            for record in page.records {
                guard let box = Data(base64Encoded: record.box), let preset = cipher.open(id: record.id, box: box)
                else {
                    report.unreadable += 1
                    try local { try presets.serverHolds(record.id, version: record.version) }
                    continue
                }
                try local { try presets.merge(preset, version: record.version) }
                report.pulled += 1
            }
            state.cursor = page.cursor
            try local { try SyncStateFile.save(state, to: stateURL) }
            if !page.hasMore || page.records.isEmpty { return }
        }
    }

    /// Pushes what changed here; false when the server answered 409 (that batch not written).
    private func push(_ report: inout PresetSyncReport) async throws(SyncError) -> Bool {
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
            let written: [ContactRecordsPutResponse.Written]
            do {
                written = try await retry.run { () async throws(AccountClientError) in
                    try await client.putPresetRecords(writes)
                }
            } catch .server(409, .presetVersionConflict?, _) {
                return false
            } catch { throw .account(error) }
            for (item, answer) in zip(batch, written) {
                try local { try presets.pushed(item.preset, version: answer.version) }
            }
            report.pushed += written.count
            start += batch.count
        }
        return true
    }

}

/// What one preset sync did.
public struct PresetSyncReport: Sendable, Equatable, Codable {
    /// Records received, opened and merged.
    public var pulled = 0
    /// Records written to the server.
    public var pushed = 0
    /// Records that did not open with this wallet's key (another wallet's, damaged, or newer).
    public var unreadable = 0
    /// 409s resolved by pulling and merging again.
    public var conflicts = 0

    public init() {}
}
