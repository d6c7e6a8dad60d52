import GRDB

extension TaskLog {
    /// Shipped migrations are never edited; add new ones below.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 node log") { db in
            // `seq` keeps arrival order for `log`; replay order never depends on it (§7.1).
            try db.execute(
                sql: """
                    CREATE TABLE node (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        id TEXT NOT NULL UNIQUE,
                        taskId TEXT NOT NULL,
                        lamport INTEGER NOT NULL,
                        wall TEXT NOT NULL,
                        json BLOB NOT NULL
                    );
                    CREATE INDEX node_task ON node(taskId);
                    """)
        }
        migrator.registerMigration("v2 sync marks") { db in
            // Ids of nodes the sync server is known to hold (pushed and acknowledged, or pulled):
            // what to push next is every node without a mark (issue 12, spec §11.3).
            try db.execute(sql: "CREATE TABLE remote (id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID")
        }
        return migrator
    }
}
