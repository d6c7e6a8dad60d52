import Foundation
import GRDB

/// Row encoding of ``ContactRecord``. Every read checks what it reads: a row changed outside the
/// store becomes ``ContactsError/corruptRow(key:reason:)``, never a crash.
extension ContactsStore {
    static func arguments(of record: ContactRecord) -> StatementArguments {
        let values: [DatabaseValue] = [
            record.key.wallet.description.databaseValue, record.key.address.description.databaseValue,
            Int64(clamping: record.causalLength).databaseValue, record.isPurged.databaseValue,
            record.deletedAt?.wallMillis.databaseValue ?? .null,
            Data(ContactRecordCodec.encode(record)).databaseValue,
        ]
        return StatementArguments(values)
    }

    static func save(_ record: ContactRecord, in db: Database) throws {
        try RowStatements(db).save(record)
    }

    static func fetchRecord(_ key: ContactKey, in db: Database) throws -> ContactRecord? {
        try RowStatements(db).fetch(key)
    }

    /// Decodes a row selected with ``columns``; `key` skips re-parsing the addresses when the
    /// caller knows them.
    static func record(from row: Row, key knownKey: ContactKey? = nil) throws -> ContactRecord {
        let wallet = (try? row.decode(String?.self, atIndex: 0)) ?? nil
        let address = (try? row.decode(String?.self, atIndex: 1)) ?? nil
        let label = "\(wallet ?? "?")/\(address ?? "?")"
        let key: ContactKey
        if let knownKey {
            key = knownKey
        } else {
            guard let wallet, let address else { throw ContactsError.corruptRow(key: label, reason: "missing key columns") }
            key = ContactKey(wallet: try ContactAddress(normalizing: wallet), address: try ContactAddress(normalizing: address))
        }
        let record = try row.withUnsafeData(atIndex: 2) { data -> ContactRecord? in
            guard let data else { return nil }
            return data.withUnsafeBytes { ContactRecordCodec.decode($0, key: key) }
        }
        guard let record else { throw ContactsError.corruptRow(key: label, reason: "state is not a version-1 record") }
        return record
    }

    /// Statements prepared once per transaction: a bulk merge runs them thousands of times.
    struct RowStatements {
        let select: Statement
        let upsert: Statement

        init(_ db: Database) throws {
            select = try db.cachedStatement(sql: ContactsStore.selectOneSQL)
            upsert = try db.cachedStatement(sql: ContactsStore.upsertSQL)
        }

        func fetch(_ key: ContactKey) throws -> ContactRecord? {
            // A cursor row reads the statement in place; `fetchOne` would copy every column first.
            let cursor = try Row.fetchCursor(select, arguments: [key.wallet.description, key.address.description])
            guard let row = try cursor.next() else { return nil }
            return try ContactsStore.record(from: row, key: key)
        }

        func save(_ record: ContactRecord) throws {
            try upsert.execute(arguments: ContactsStore.arguments(of: record))
        }
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
