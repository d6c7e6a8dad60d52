import TandemAPI
public import TandemBasics

extension DeadlineStore {
    public var queuesSyncWrites: Bool { base.queuesSyncWrites }
    public func registerDeviceKey(publicKey: String, userID: AccountID, now: UnixMillis) async throws
        -> DeviceKeyOutcome
    {
        try await bounded { try await base.registerDeviceKey(publicKey: publicKey, userID: userID, now: now) }
    }
    public func deviceKeys(userID: AccountID) async throws -> [StoredDeviceKey] {
        try await bounded { try await base.deviceKeys(userID: userID) }
    }
    public func revokeDeviceKey(publicKey: String, userID: AccountID, now: UnixMillis) async throws -> StoredDeviceKey?
    {
        try await bounded { try await base.revokeDeviceKey(publicKey: publicKey, userID: userID, now: now) }
    }
    public func appendRedoNodes(_ drafts: [RedoNodeDraft], userID: AccountID, now: UnixMillis) async throws
        -> [RedoNodeOutcome]
    {
        try await bounded { try await base.appendRedoNodes(drafts, userID: userID, now: now) }
    }
    public func redoNodes(userID: AccountID, after seq: Int64, limit: Int) async throws -> [StoredRedoNode] {
        try await bounded { try await base.redoNodes(userID: userID, after: seq, limit: limit) }
    }
    public func shareRedoTask(taskID: String, sharer: AccountID, recipient: AccountID, now: UnixMillis) async throws
        -> TaskShareOutcome
    {
        try await bounded {
            try await base.shareRedoTask(taskID: taskID, sharer: sharer, recipient: recipient, now: now)
        }
    }
    public func putContactRecords(_ drafts: [ContactRecordDraft], userID: AccountID) async throws -> ContactPutOutcome {
        try await bounded { try await base.putContactRecords(drafts, userID: userID) }
    }
    public func contactRecords(userID: AccountID, after seq: Int64, limit: Int) async throws -> [StoredContactRecord] {
        try await bounded { try await base.contactRecords(userID: userID, after: seq, limit: limit) }
    }
    public func deleteSyncData(userID: AccountID) async throws {
        try await bounded { try await base.deleteSyncData(userID: userID) }
    }
}
