import Foundation
import GRDB

/// Row encoding of ``ContactRecord``. Every read checks what it reads: a row changed outside the
/// store becomes ``ContactsError/corruptRow(key:reason:)``, never a crash.
extension ContactsStore {
    static func fetchRecord(_ key: ContactKey, in db: Database) throws -> ContactRecord? {
        try RowStatements(db).fetch(key)
    }

    static func save(_ record: ContactRecord, in db: Database) throws {
        try RowStatements(db).save(record)
    }

    /// Decodes a row selected with ``selectRowsSQL``; `key` skips re-parsing the addresses when
    /// the caller knows them, and `wallet` skips parsing a wallet column that holds exactly its
    /// text (a query of one wallet's rows reads the same wallet 10,000 times).
    static func record(
        from row: Row, key knownKey: ContactKey? = nil, wallet knownWallet: ContactAddress? = nil
    ) throws -> ContactRecord {
        let wallet = text(row, 0)
        let address = text(row, 1)
        let label = "\(wallet ?? "?")/\(address ?? "?")"
        let key: ContactKey
        if let knownKey {
            key = knownKey
        } else {
            guard let wallet, let address else {
                throw ContactsError.corruptRow(key: label, reason: "missing key columns")
            }
            do {
                let parsedWallet =
                    if let knownWallet, knownWallet.description == wallet { knownWallet } else {
                        try ContactAddress(normalizing: wallet)
                    }
                key = ContactKey(wallet: parsedWallet, address: try ContactAddress(normalizing: address))
            } catch {
                throw ContactsError.corruptRow(key: label, reason: "\(error)")
            }
        }
        return try decode(try state(row, 2, key: key.description), key: key)
    }

    /// A text column, or nil when it is NULL or not text (the caller names the row at fault).
    static func text(_ row: Row, _ index: Int) -> String? {
        guard case .string(let text) = (row[index] as DatabaseValue).storage else { return nil }
        return text
    }

    /// The `state` column: a record is never stored without one, so NULL or a value that is not
    /// bytes is ``ContactsError/corruptRow(key:reason:)``.
    static func state(_ row: Row, _ index: Int, key: String) throws -> Data {
        switch (row[index] as DatabaseValue).storage {
        case .blob(let data): return data
        case .null: throw ContactsError.corruptRow(key: key, reason: "state is missing")
        default: throw ContactsError.corruptRow(key: key, reason: "state is not a blob")
        }
    }

    /// Decodes a stored state.
    static func decode(_ state: Data, key: ContactKey) throws -> ContactRecord {
        guard let record = state.withUnsafeBytes({ ContactRecordCodec.decode($0, key: key) }) else {
            throw ContactsError.corruptRow(key: key.description, reason: "state is not a version-1 record")
        }
        return record
    }

    /// Statements and wallet ids for one transaction: a bulk merge runs them thousands of times.
    final class RowStatements {
        let db: Database
        let select: Statement
        let upsert: Statement
        private var walletIDs: [ContactAddress: Int64] = [:]

        init(_ db: Database) throws {
            self.db = db
            select = try db.cachedStatement(sql: ContactsStore.selectStateSQL)
            upsert = try db.cachedStatement(sql: ContactsStore.upsertSQL)
        }

        /// The wallet's row id; with `create`, numbers a new wallet.
        func walletID(_ wallet: ContactAddress, create: Bool) throws -> Int64? {
            if let id = walletIDs[wallet] { return id }
            var id = try Int64.fetchOne(
                db, sql: "SELECT id FROM wallet WHERE address = ?", arguments: [wallet.description])
            if id == nil, create {
                try db.execute(sql: "INSERT INTO wallet (address) VALUES (?)", arguments: [wallet.description])
                id = db.lastInsertedRowID
            }
            if let id { walletIDs[wallet] = id }
            return id
        }

        /// The stored state bytes of one key.
        func state(_ key: ContactKey) throws -> Data? {
            guard let walletID = try walletID(key.wallet, create: false) else { return nil }
            // A cursor row reads the statement in place; `fetchOne` would copy the row first.
            let cursor = try Row.fetchCursor(select, arguments: [walletID, key.address.description])
            guard let row = try cursor.next() else { return nil }
            return try ContactsStore.state(row, 0, key: key.description)
        }

        func fetch(_ key: ContactKey) throws -> ContactRecord? {
            guard let state = try state(key) else { return nil }
            return try ContactsStore.decode(state, key: key)
        }

        /// Every stored state of `wallet` by address text, read with one statement: cheaper than
        /// one lookup per record when a merge or migration touches thousands of them. Nil when
        /// the wallet holds more than `limit` rows.
        func states(wallet: ContactAddress, atMost limit: Int = .max) throws -> [String: Data]? {
            guard let walletID = try walletID(wallet, create: false) else { return [:] }
            let count =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM contact WHERE walletID = ?", arguments: [walletID]) ?? 0
            guard count <= limit else { return nil }
            var states: [String: Data] = [:]
            states.reserveCapacity(count)
            let rows = try Row.fetchCursor(
                db, sql: "SELECT address, state FROM contact WHERE walletID = ?",
                arguments: [walletID])
            while let row = try rows.next() {
                guard let address = ContactsStore.text(row, 0) else {
                    throw ContactsError.corruptRow(key: "\(wallet)/?", reason: "address is not text")
                }
                states[address] = try ContactsStore.state(row, 1, key: "\(wallet)/\(address)")
            }
            return states
        }

        /// Writes a record; `encoded` is its ``ContactRecordCodec`` form when the caller has it.
        func save(_ record: ContactRecord, encoded: [UInt8]? = nil) throws {
            guard let walletID = try walletID(record.key.wallet, create: true) else { return }
            let tombstone: Int64? = record.isDeleted && !record.isPurged ? record.deletedAt?.wallMillis : nil
            // An array literal of concrete values: GRDB's sequence initialiser goes through key
            // paths, which costs more than the SQLite work in a bulk merge.
            try upsert.execute(arguments: [
                walletID, record.key.address.description, tombstone, Data(encoded ?? ContactRecordCodec.encode(record)),
            ])
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
