import GRDB

extension ContactsStore {
    /// Shipped migrations are never edited; add new ones below.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 contacts") { db in
            // One row per (wallet, normalised address); wallets are numbered once so that rows
            // stay narrow. `state` is the whole replicated state (`ContactRecordCodec`).
            // `tombstoneWall` is the delete time of an unpurged tombstone (NULL otherwise): what
            // purge filters on. Purged skeletons stay as rows.
            try db.execute(
                sql: """
                    CREATE TABLE wallet (
                        id INTEGER PRIMARY KEY,
                        address TEXT NOT NULL UNIQUE
                    );
                    CREATE TABLE contact (
                        walletID INTEGER NOT NULL REFERENCES wallet(id),
                        address TEXT NOT NULL,
                        tombstoneWall INTEGER,
                        state BLOB NOT NULL,
                        PRIMARY KEY (walletID, address)
                    ) WITHOUT ROWID;
                    CREATE TABLE meta (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    );
                    """)
        }
        return migrator
    }

    static let upsertSQL =
        "INSERT OR REPLACE INTO contact (walletID, address, tombstoneWall, state) VALUES (?, ?, ?, ?)"

    static let selectStateSQL = "SELECT state FROM contact WHERE walletID = ? AND address = ?"

    /// Rows as ``ContactsStore/record(from:key:)`` reads them: wallet address, address, state.
    static let selectRowsSQL =
        "SELECT wallet.address, contact.address, contact.state FROM contact JOIN wallet ON wallet.id = contact.walletID"
}
