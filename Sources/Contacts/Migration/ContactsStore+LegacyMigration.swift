/// What a migration did.
public struct LegacyMigrationReport: Sendable, Hashable {
    /// True when the flag was already set: nothing was read into the store.
    public let alreadyMigrated: Bool
    /// Contacts decoded from the file.
    public let entriesRead: Int
    /// Distinct (wallet, address) records the entries collapsed into.
    public let records: Int
    /// Records whose stored state changed.
    public let recordsChanged: Int
    public let skipped: [LegacyContactList.Skipped]
    public let ignoredKeys: [String]
}

extension ContactsStore {
    static let migrationFlagKey = "legacyContactsMigrated"

    /// Whether the legacy migration has committed.
    public func isLegacyMigrated() throws -> Bool {
        try writer.read { db in try Self.metaValue(Self.migrationFlagKey, in: db) != nil }
    }

    /// Migrates KaChat's legacy contact lists (seed 002 "Migration Plan", timeline-and-contacts
    /// §3.3) in one transaction together with its done-flag: a second run changes nothing, a
    /// failure part-way leaves nothing. Entries are merged, never blindly inserted, at floor
    /// stamps, so records synced from elsewhere keep their real edits and deletes.
    public func migrateLegacy(json: some Sequence<UInt8>, defaultWallet: ContactAddress) throws -> LegacyMigrationReport
    {
        try migrateLegacy(json: json, defaultWallet: defaultWallet, afterEachRecord: { _ in })
    }

    /// `afterEachRecord` runs inside the transaction after each record is written; a test throws
    /// from it to simulate a crash mid-migration.
    func migrateLegacy(
        json: some Sequence<UInt8>, defaultWallet: ContactAddress, afterEachRecord: (Int) throws -> Void
    ) throws -> LegacyMigrationReport {
        if try isLegacyMigrated() { return Self.alreadyMigratedReport }
        let list = try LegacyContactList(json: json, defaultWallet: defaultWallet)
        var collapsed: [ContactKey: ContactRecord] = [:]
        var order: [ContactKey] = []
        for entry in list.entries {
            let record = entry.record
            if let existing = collapsed[entry.key] {
                collapsed[entry.key] = existing.merged(with: record)
            } else {
                collapsed[entry.key] = record
                order.append(entry.key)
            }
        }
        let outcome = try writer.write { db -> [ContactChange]? in
            // Checked again inside the transaction: another process may have migrated meanwhile.
            guard try Self.metaValue(Self.migrationFlagKey, in: db) == nil else { return nil }
            var changed: [ContactChange] = []
            let lookup = try StateLookup(rows: RowStatements(db), keys: order)
            for (index, key) in order.enumerated() {
                guard let incoming = collapsed[key] else { continue }
                if let merged = try lookup.mergeAndSave(incoming) {
                    changed.append(ContactChange(key: key, isWatched: merged.isWatched))
                }
                try afterEachRecord(index)
            }
            try Self.setMetaValue("1", for: Self.migrationFlagKey, in: db)
            return changed
        }
        guard let changed = outcome else { return Self.alreadyMigratedReport }
        changes.publish(changed)
        return LegacyMigrationReport(
            alreadyMigrated: false, entriesRead: list.entries.count, records: order.count,
            recordsChanged: changed.count, skipped: list.skipped, ignoredKeys: list.ignoredKeys)
    }

    private static let alreadyMigratedReport = LegacyMigrationReport(
        alreadyMigrated: true, entriesRead: 0, records: 0, recordsChanged: 0, skipped: [], ignoredKeys: [])
}
