import GRDB

/// Row encoding of ``ContactRecord``. Every read checks types: a row changed outside the store
/// becomes ``ContactsError/corruptRow(key:reason:)``, never a crash.
extension ContactsStore {
    static func arguments(of record: ContactRecord) -> StatementArguments {
        let p = record.payload
        return [
            record.key.wallet.description, record.key.address.description,
            Int64(clamping: record.causalLength), record.isPurged, record.deletedAt?.description,
            p.addedAt.rawValue, p.lastMessageAt?.rawValue,
            p.userAlias.value, p.userAlias.stamp.description,
            p.knsName.value, p.knsName.stamp.description,
            p.isAutoAdded.value, p.isAutoAdded.stamp.description,
            p.notificationsMuted.value, p.notificationsMuted.stamp.description,
            p.realtimeUpdatesDisabled.value, p.realtimeUpdatesDisabled.stamp.description,
        ]
    }

    static func save(_ record: ContactRecord, in db: Database) throws {
        let statement = try db.cachedStatement(sql: upsertSQL)
        try statement.execute(arguments: arguments(of: record))
    }

    static func fetchRecord(_ key: ContactKey, in db: Database) throws -> ContactRecord? {
        let statement = try db.cachedStatement(sql: selectOneSQL)
        guard let row = try Row.fetchOne(statement, arguments: [key.wallet.description, key.address.description])
        else { return nil }
        return try record(from: row, key: key)
    }

    /// Decodes a row selected with ``columns``, by index (name lookups cost more than the rest
    /// of the decoding); `key` skips re-parsing the addresses when the caller knows them.
    static func record(from row: Row, key knownKey: ContactKey? = nil) throws -> ContactRecord {
        // `decode(_:atIndex:)` throws on a wrong type where `row[…]` would trap.
        func column<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type = T.self) -> T? {
            guard index < row.count else { return nil }
            return (try? row.decode(T?.self, atIndex: index)) ?? nil
        }
        func corrupt(_ reason: String) -> ContactsError {
            .corruptRow(key: "\(column(0, as: String.self) ?? "?")/\(column(1, as: String.self) ?? "?")", reason: reason)
        }
        let key: ContactKey
        if let knownKey {
            key = knownKey
        } else {
            guard let wallet = column(0, as: String.self), let address = column(1, as: String.self) else {
                throw corrupt("missing key columns")
            }
            key = ContactKey(wallet: try ContactAddress(normalizing: wallet), address: try ContactAddress(normalizing: address))
        }
        guard let length = column(2, as: Int64.self), length >= 0,
              let purged = column(3, as: Bool.self), let added = column(5, as: Int64.self)
        else { throw corrupt("missing causal length, purge flag or addedAt") }
        func stamp(_ index: Int) throws -> HLCTimestamp {
            guard let text = column(index, as: String.self) else { throw corrupt("missing stamp in column \(index)") }
            return try HLCTimestamp(parsing: text)
        }
        func string(_ index: Int) throws -> LWWRegister<String> {
            guard let value = column(index, as: String.self) else { throw corrupt("missing text in column \(index)") }
            return LWWRegister(value, stamp: try stamp(index + 1))
        }
        func flag(_ index: Int) throws -> LWWRegister<Bool> {
            guard let value = column(index, as: Bool.self) else { throw corrupt("missing flag in column \(index)") }
            return LWWRegister(value, stamp: try stamp(index + 1))
        }
        let deletedAt = try column(4, as: String.self).map { text throws(ContactsError) in try HLCTimestamp(parsing: text) }
        let payload = ContactPayload(
            addedAt: UnixMillis(added), lastMessageAt: column(6, as: Int64.self).map(UnixMillis.init),
            userAlias: try string(7), knsName: try string(9), isAutoAdded: try flag(11),
            notificationsMuted: try flag(13), realtimeUpdatesDisabled: try flag(15))
        return ContactRecord(key: key, causalLength: UInt64(length), isPurged: purged, deletedAt: deletedAt, payload: payload)
    }

    // MARK: meta

    static func metaValue(_ key: String, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
    }

    static func setMetaValue(_ value: String, for key: String, in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
    }

    /// The persisted clock: the last stamp issued or observed, so a restarted process never
    /// issues a stamp below one it already used.
    func loadClock(in db: Database) throws -> HybridLogicalClock {
        guard let text = try Self.metaValue("hlc", in: db) else { return HybridLogicalClock(replica: replica) }
        let last = try HLCTimestamp(parsing: text)
        return HybridLogicalClock(replica: replica, lastWallMillis: last.wallMillis, lastCounter: last.counter)
    }

    func saveClock(_ clock: HybridLogicalClock, in db: Database) throws {
        let last = HLCTimestamp(wallMillis: clock.lastWallMillis, counter: clock.lastCounter, replica: replica)
        try Self.setMetaValue(last.description, for: "hlc", in: db)
    }
}
