import TandemAPI
import TandemBasics

/// The sync operations of issue 12, counted in flight like every other store operation.
extension MeteredStore {
    var queuesSyncWrites: Bool { base.queuesSyncWrites }
    func registerDeviceKey(publicKey: String, userID: AccountID, now: UnixMillis) async throws -> DeviceKeyOutcome {
        try await counted { try await base.registerDeviceKey(publicKey: publicKey, userID: userID, now: now) }
    }
    func deviceKeys(userID: AccountID) async throws -> [StoredDeviceKey] {
        try await counted { try await base.deviceKeys(userID: userID) }
    }
    func revokeDeviceKey(publicKey: String, userID: AccountID, now: UnixMillis) async throws -> StoredDeviceKey? {
        try await counted { try await base.revokeDeviceKey(publicKey: publicKey, userID: userID, now: now) }
    }
    func appendRedoNodes(_ drafts: [RedoNodeDraft], userID: AccountID, now: UnixMillis) async throws
        -> [RedoNodeOutcome]
    {
        try await counted { try await base.appendRedoNodes(drafts, userID: userID, now: now) }
    }
    func redoNodes(userID: AccountID, after seq: Int64, limit: Int) async throws -> [StoredRedoNode] {
        try await counted { try await base.redoNodes(userID: userID, after: seq, limit: limit) }
    }
    func shareRedoTask(taskID: String, sharer: AccountID, recipient: AccountID, now: UnixMillis) async throws
        -> TaskShareOutcome
    {
        try await counted {
            try await base.shareRedoTask(taskID: taskID, sharer: sharer, recipient: recipient, now: now)
        }
    }
    func putContactRecords(_ drafts: [ContactRecordDraft], userID: AccountID) async throws -> ContactPutOutcome {
        try await counted { try await base.putContactRecords(drafts, userID: userID) }
    }
    func contactRecords(userID: AccountID, after seq: Int64, limit: Int) async throws -> [StoredContactRecord] {
        try await counted { try await base.contactRecords(userID: userID, after: seq, limit: limit) }
    }
    func deleteSyncData(userID: AccountID) async throws {
        try await counted { try await base.deleteSyncData(userID: userID) }
    }
}
