import GRDB

extension ContactsStore {
    /// Shipped migrations are never edited; add new ones below.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 contacts") { db in
            // One row per (wallet, normalised address). `state` is the whole replicated state
            // (`ContactRecordCodec`); causal length, purge flag and delete time are repeated as
            // columns so that purge and listings can filter in SQL. Purged skeletons stay as rows.
            try db.execute(sql: """
                CREATE TABLE contact (
                    wallet TEXT NOT NULL,
                    address TEXT NOT NULL,
                    causalLength INTEGER NOT NULL,
                    isPurged INTEGER NOT NULL,
                    deletedAtWall INTEGER,
                    state BLOB NOT NULL,
                    PRIMARY KEY (wallet, address)
                ) WITHOUT ROWID;
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                """)
        }
        return migrator
    }

    static let upsertSQL = """
        INSERT OR REPLACE INTO contact (wallet, address, causalLength, isPurged, deletedAtWall, state)
        VALUES (?, ?, ?, ?, ?, ?)
        """

    /// The columns in the order ``ContactsStore/record(from:key:)`` reads them by index.
    static let columns = "wallet, address, state"

    static let selectOneSQL = "SELECT \(columns) FROM contact WHERE wallet = ? AND address = ?"
}
