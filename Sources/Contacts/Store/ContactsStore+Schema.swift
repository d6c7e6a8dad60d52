import GRDB

extension ContactsStore {
    /// Shipped migrations are never edited; add new ones below.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 contacts") { db in
            // One row per (wallet, normalised address). Registers are (value, stamp) column pairs;
            // stamps are HLC text (`HLCTimestamp.description`). Purged skeletons stay as rows.
            try db.execute(sql: """
                CREATE TABLE contact (
                    wallet TEXT NOT NULL,
                    address TEXT NOT NULL,
                    causalLength INTEGER NOT NULL,
                    isPurged INTEGER NOT NULL,
                    deletedAt TEXT,
                    addedAt INTEGER NOT NULL,
                    lastMessageAt INTEGER,
                    userAlias TEXT NOT NULL,
                    userAliasStamp TEXT NOT NULL,
                    knsName TEXT NOT NULL,
                    knsNameStamp TEXT NOT NULL,
                    isAutoAdded INTEGER NOT NULL,
                    isAutoAddedStamp TEXT NOT NULL,
                    notificationsMuted INTEGER NOT NULL,
                    notificationsMutedStamp TEXT NOT NULL,
                    realtimeUpdatesDisabled INTEGER NOT NULL,
                    realtimeUpdatesDisabledStamp TEXT NOT NULL,
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
        INSERT OR REPLACE INTO contact (wallet, address, causalLength, isPurged, deletedAt, addedAt, lastMessageAt,
            userAlias, userAliasStamp, knsName, knsNameStamp, isAutoAdded, isAutoAddedStamp,
            notificationsMuted, notificationsMutedStamp, realtimeUpdatesDisabled, realtimeUpdatesDisabledStamp)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The columns in the order ``ContactsStore/record(from:key:)`` reads them by index.
    static let columns = """
        wallet, address, causalLength, isPurged, deletedAt, addedAt, lastMessageAt, \
        userAlias, userAliasStamp, knsName, knsNameStamp, isAutoAdded, isAutoAddedStamp, \
        notificationsMuted, notificationsMutedStamp, realtimeUpdatesDisabled, realtimeUpdatesDisabledStamp
        """

    static let selectOneSQL = "SELECT \(columns) FROM contact WHERE wallet = ? AND address = ?"
}
