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
        migrator.registerMigration("v2 verified nodes and projection") { db in
            // `verified` = the node passed every §6.2 check, signature included, when it was stored
            // (issue 12 item 6). Rows from v1 start unverified and are checked once on first read.
            // The triggers make any change to the log, by this store or by hand, bump `generation`,
            // and any change to a stored node's bytes clear its `verified`: a projection is valid
            // only for the generation it was built at.
            try db.execute(
                sql: """
                    ALTER TABLE node ADD COLUMN verified INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE log_generation (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
                    INSERT INTO log_generation (id, value) VALUES (1, 0);
                    CREATE TABLE projection (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        generation INTEGER NOT NULL,
                        state BLOB NOT NULL
                    );
                    CREATE TRIGGER node_inserted AFTER INSERT ON node BEGIN
                        UPDATE log_generation SET value = value + 1;
                    END;
                    CREATE TRIGGER node_changed AFTER UPDATE OF seq, id, taskId, lamport, wall, json ON node BEGIN
                        UPDATE node SET verified = 0 WHERE seq = NEW.seq;
                        UPDATE log_generation SET value = value + 1;
                    END;
                    CREATE TRIGGER node_deleted AFTER DELETE ON node BEGIN
                        UPDATE log_generation SET value = value + 1;
                    END;
                    """)
        }
        migrator.registerMigration("v3 sync marks") { db in
            // Ids of nodes the sync server is known to hold (pushed and acknowledged, or pulled):
            // what to push next is every node without a mark (issue 12, spec §11.3).
            try db.execute(sql: "CREATE TABLE remote (id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID")
        }
        migrator.registerMigration("v4 projection per task") { db in
            // One row per task instead of one blob of the whole state, so an append rewrites only
            // the tasks it touches (issue 12 item 6). `projection_header` holds the log generation
            // the rows were built at (the v2 triggers still bump it on any change to `node`);
            // `projection_dangling` finds the tasks waiting for a parent that was missing.
            try db.execute(
                sql: """
                    DROP TABLE projection;
                    CREATE TABLE projection_header (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        generation INTEGER NOT NULL
                    );
                    CREATE TABLE projection_task (
                        taskId TEXT PRIMARY KEY NOT NULL,
                        live INTEGER NOT NULL,
                        state BLOB NOT NULL
                    ) WITHOUT ROWID;
                    CREATE TABLE projection_dangling (
                        parent TEXT NOT NULL,
                        taskId TEXT NOT NULL,
                        PRIMARY KEY (parent, taskId)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v5 presets") { db in
            // Saved task filters (issue 27 item 3), synced sealed through the server. Each record
            // is a last-writer-wins register stamped by `preset_clock` (a hybrid logical clock:
            // never behind a stamp this profile has seen); `dirty` marks what the server has not
            // got yet, `server_version` the version a write must name.
            try db.execute(
                sql: """
                    CREATE TABLE preset (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        query BLOB NOT NULL,
                        stamp INTEGER NOT NULL,
                        origin TEXT NOT NULL,
                        deleted INTEGER NOT NULL,
                        server_version INTEGER NOT NULL DEFAULT 0,
                        dirty INTEGER NOT NULL DEFAULT 1
                    ) WITHOUT ROWID;
                    CREATE TABLE preset_clock (id INTEGER PRIMARY KEY CHECK (id = 1), last INTEGER NOT NULL);
                    """)
        }
        migrator.registerMigration("v6 summary columns") { db in
            // What `tandem tasks list` filters, ranks, searches and prints of each live task, as
            // columns beside its slice (issue 49 item 2), written by the same transaction: a list
            // reads these instead of decoding every slice. Rows of a dead task leave them NULL.
            // Dropping the header makes the next opened log rebuild every row with its columns.
            try db.execute(
                sql: """
                    ALTER TABLE projection_task ADD COLUMN created_by TEXT;
                    ALTER TABLE projection_task ADD COLUMN created INTEGER;
                    ALTER TABLE projection_task ADD COLUMN updated INTEGER;
                    ALTER TABLE projection_task ADD COLUMN title TEXT;
                    ALTER TABLE projection_task ADD COLUMN description TEXT;
                    ALTER TABLE projection_task ADD COLUMN privacy INTEGER;
                    ALTER TABLE projection_task ADD COLUMN story_points INTEGER;
                    ALTER TABLE projection_task ADD COLUMN priority INTEGER;
                    ALTER TABLE projection_task ADD COLUMN frequency_days INTEGER;
                    ALTER TABLE projection_task ADD COLUMN archived INTEGER;
                    ALTER TABLE projection_task ADD COLUMN due INTEGER;
                    ALTER TABLE projection_task ADD COLUMN notes TEXT;
                    DELETE FROM projection_header;
                    """)
        }
        migrator.registerMigration("v7 summary index") { db in
            // The live tasks' summary columns in task-id order, apart from their slices (issue 49
            // item 2): a list scans this index's pages, a tenth of the table's, whose rows are
            // mostly slices. Partial, so a dead task's row costs the index nothing; `live` is in
            // it too, since SQLite 3.40 reads a partial index as covering only when it holds the
            // columns of its own WHERE.
            try db.execute(
                sql: """
                    CREATE INDEX projection_task_summary ON projection_task (taskId, created_by, created, updated,
                        title, description, privacy, story_points, priority, frequency_days, archived, due, notes,
                        live)
                        WHERE live = 1;
                    """)
        }
        return migrator
    }
}
