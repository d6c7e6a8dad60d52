import GRDB

extension SQLiteServerStore {
    /// Shipped migrations are never edited; new ones are appended.
    /// Times are milliseconds since 1970 (INTEGER), the same in both backends.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-auth-and-profiles") { db in
            try db.execute(
                sql: """
                    CREATE TABLE auth_user (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        email TEXT NOT NULL UNIQUE,
                        email_verified BOOLEAN NOT NULL DEFAULT 0,
                        image TEXT,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL,
                        username TEXT UNIQUE,
                        display_username TEXT
                    );
                    CREATE TABLE account (
                        id TEXT PRIMARY KEY NOT NULL,
                        account_id TEXT NOT NULL,
                        provider_id TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        password TEXT,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL,
                        UNIQUE (provider_id, account_id)
                    );
                    CREATE INDEX account_user_id ON account(user_id);
                    CREATE TABLE session (
                        id TEXT PRIMARY KEY NOT NULL,
                        token_hash TEXT NOT NULL UNIQUE,
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        expires_at INTEGER NOT NULL,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL,
                        ip_address TEXT,
                        user_agent TEXT,
                        remember_me BOOLEAN NOT NULL DEFAULT 1
                    );
                    CREATE INDEX session_user_id ON session(user_id);
                    CREATE TABLE users (
                        user_id TEXT PRIMARY KEY NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        display_name TEXT NOT NULL,
                        kaspa_address TEXT,
                        public_keys TEXT NOT NULL DEFAULT '[]',
                        updated_at INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2-kasia-relay") { db in
            // block_time is unique: assigned in commit order by the one writer (issue 11 item 2).
            // (kind, sender, tag, block_time) makes every by-sender/by-owner page an index seek;
            // the partial receiver index serves by-receiver pages.
            try db.execute(
                sql: """
                    CREATE TABLE kasia_tx (
                        tx_id TEXT PRIMARY KEY NOT NULL,
                        block_time INTEGER NOT NULL UNIQUE,
                        kind TEXT NOT NULL,
                        sender TEXT NOT NULL,
                        receiver TEXT,
                        amount INTEGER NOT NULL DEFAULT 0,
                        tag TEXT NOT NULL DEFAULT '',
                        body BLOB NOT NULL,
                        payload BLOB NOT NULL,
                        nonce TEXT NOT NULL,
                        signature TEXT NOT NULL
                    );
                    CREATE INDEX kasia_tx_by_sender ON kasia_tx(kind, sender, tag, block_time);
                    CREATE INDEX kasia_tx_by_receiver ON kasia_tx(kind, receiver, block_time) WHERE receiver IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v3-sync") { db in
            // Issue 12. sync_clock.last is the one counter of node positions and feed seqs,
            // advanced inside each sync write (one writer at a time), so seqs follow commit order.
            // Rows keyed by account cascade with the account; nodes stay while any account
            // can read their task (deleteUser purges the orphans).
            try db.execute(
                sql: """
                    CREATE TABLE sync_clock (id INTEGER PRIMARY KEY NOT NULL, last INTEGER NOT NULL);
                    INSERT INTO sync_clock (id, last) VALUES (1, 0);
                    CREATE TABLE device_key (
                        public_key TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        created_at INTEGER NOT NULL,
                        revoked_at INTEGER
                    );
                    CREATE INDEX device_key_user ON device_key(user_id);
                    CREATE TABLE redo_node (
                        id TEXT PRIMARY KEY NOT NULL,
                        task_id TEXT NOT NULL,
                        pos INTEGER NOT NULL UNIQUE,
                        json BLOB NOT NULL,
                        author_key TEXT NOT NULL,
                        pushed_by TEXT NOT NULL,
                        received_at INTEGER NOT NULL
                    );
                    CREATE INDEX redo_node_task ON redo_node(task_id, pos);
                    CREATE TABLE redo_task_access (
                        task_id TEXT NOT NULL,
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        granted_at INTEGER NOT NULL,
                        PRIMARY KEY (task_id, user_id)
                    );
                    CREATE INDEX redo_task_access_user ON redo_task_access(user_id);
                    CREATE TABLE redo_feed (
                        seq INTEGER PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        node_id TEXT NOT NULL
                    );
                    CREATE INDEX redo_feed_user ON redo_feed(user_id, seq);
                    CREATE TABLE contact_record (
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        record_id TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        box BLOB NOT NULL,
                        seq INTEGER NOT NULL UNIQUE,
                        PRIMARY KEY (user_id, record_id)
                    );
                    CREATE INDEX contact_record_feed ON contact_record(user_id, seq);
                    """)
        }
        // A migration's text never changes: the v4 column list is spelled out here.
        let v4Columns = "tx_id, block_time, kind, sender, receiver, amount, tag, body, payload, nonce, signature"
        migrator.registerMigration("v4-kasia-rowid") { db in
            // Issue 11 "Figures": block_time becomes the table's rowid, so an insert appends to
            // the table B-tree and no separate UNIQUE index on block_time is written (one B-tree
            // less per row). It stays unique and assigned in commit order by the one writer, so
            // a max-block_time reader still misses nothing (item 2); tx_id keeps its own UNIQUE
            // index for resubmissions, and both page indexes stay as they were.
            try db.execute(
                sql: """
                    CREATE TABLE kasia_tx_v4 (
                        block_time INTEGER PRIMARY KEY NOT NULL,
                        tx_id TEXT NOT NULL UNIQUE,
                        kind TEXT NOT NULL,
                        sender TEXT NOT NULL,
                        receiver TEXT,
                        amount INTEGER NOT NULL DEFAULT 0,
                        tag TEXT NOT NULL DEFAULT '',
                        body BLOB NOT NULL,
                        payload BLOB NOT NULL,
                        nonce TEXT NOT NULL,
                        signature TEXT NOT NULL
                    );
                    INSERT INTO kasia_tx_v4 (\(v4Columns))
                        SELECT \(v4Columns) FROM kasia_tx ORDER BY block_time;
                    DROP TABLE kasia_tx;
                    ALTER TABLE kasia_tx_v4 RENAME TO kasia_tx;
                    CREATE INDEX kasia_tx_by_sender ON kasia_tx(kind, sender, tag, block_time);
                    CREATE INDEX kasia_tx_by_receiver ON kasia_tx(kind, receiver, block_time) WHERE receiver IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v5-kasia-chain") { db in
            // Issue 25: rows from the chain carry the including block's time, which is neither
            // unique nor in commit order, so the commit-order position moves to its own column,
            // `seq`, now the rowid (a relayed row keeps seq = block_time); `relayed_time` is set
            // on relayed rows (a reorg returns them to unaccepted instead of removing them);
            // pages order by (block_time, tx_id). kasia_chain holds the ingester's cursor.
            try db.execute(
                sql: """
                    CREATE TABLE kasia_tx_v5 (
                        seq INTEGER PRIMARY KEY NOT NULL,
                        tx_id TEXT NOT NULL UNIQUE,
                        block_time INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        sender TEXT NOT NULL,
                        receiver TEXT,
                        amount INTEGER NOT NULL DEFAULT 0,
                        tag TEXT NOT NULL DEFAULT '',
                        body BLOB NOT NULL,
                        payload BLOB NOT NULL,
                        nonce TEXT NOT NULL,
                        signature TEXT NOT NULL,
                        accepting_block TEXT,
                        accepting_daa_score INTEGER,
                        relayed_time INTEGER
                    );
                    INSERT INTO kasia_tx_v5 (seq, tx_id, block_time, kind, sender, receiver, amount, tag, body, payload,
                                             nonce, signature, relayed_time)
                        SELECT block_time, tx_id, block_time, kind, sender, receiver, amount, tag, body, payload,
                               nonce, signature, block_time
                        FROM kasia_tx ORDER BY block_time;
                    DROP TABLE kasia_tx;
                    ALTER TABLE kasia_tx_v5 RENAME TO kasia_tx;
                    CREATE INDEX kasia_tx_by_sender ON kasia_tx(kind, sender, tag, block_time, tx_id);
                    CREATE INDEX kasia_tx_by_receiver ON kasia_tx(kind, receiver, block_time, tx_id)
                        WHERE receiver IS NOT NULL;
                    CREATE INDEX kasia_tx_by_accepting_block ON kasia_tx(accepting_block)
                        WHERE accepting_block IS NOT NULL;
                    CREATE TABLE kasia_chain (
                        id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
                        block TEXT NOT NULL,
                        daa_score INTEGER NOT NULL,
                        block_time INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v6-kasia-chain-network") { db in
            // The network the cursor belongs to: a server restarted on another network must not
            // go on from it (issue 25).
            try db.execute(sql: "ALTER TABLE kasia_chain ADD COLUMN network TEXT NOT NULL DEFAULT ''")
        }
        migrator.registerMigration("v7-task-presets") { db in
            // Issue 27: saved task-filter presets, sealed like contact records, in a table of
            // the same shape (one collection each).
            try db.execute(
                sql: """
                    CREATE TABLE task_preset_record (
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        record_id TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        box BLOB NOT NULL,
                        seq INTEGER NOT NULL UNIQUE,
                        PRIMARY KEY (user_id, record_id)
                    );
                    CREATE INDEX task_preset_record_feed ON task_preset_record(user_id, seq);
                    """)
        }
        migrator.registerMigration("v8-sync-usage") { db in
            // Issue 50 item 6: what each account holds per synced collection, kept in every
            // sync write's transaction so a quota check reads one row. Counted once here from
            // what is stored (a node counts for the account that pushed it, while it exists).
            try db.execute(
                sql: """
                    CREATE TABLE sync_usage (
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        collection TEXT NOT NULL,
                        row_count INTEGER NOT NULL,
                        byte_count INTEGER NOT NULL,
                        PRIMARY KEY (user_id, collection)
                    );
                    INSERT INTO sync_usage (user_id, collection, row_count, byte_count)
                    SELECT pushed_by, 'nodes', COUNT(*), SUM(length(json)) FROM redo_node
                    WHERE pushed_by IN (SELECT id FROM auth_user) GROUP BY pushed_by;
                    INSERT INTO sync_usage (user_id, collection, row_count, byte_count)
                    SELECT user_id, 'contacts', COUNT(*), SUM(length(box)) FROM contact_record GROUP BY user_id;
                    INSERT INTO sync_usage (user_id, collection, row_count, byte_count)
                    SELECT user_id, 'taskPresets', COUNT(*), SUM(length(box)) FROM task_preset_record GROUP BY user_id;
                    """)
        }
        migrator.registerMigration("v9-share-invitations") { db in
            // Issue 50 item 6: a share from an account the recipient has not accepted before
            // waits as an invitation; share_trust holds who takes whose shares without asking.
            // Accounts that already read a task together trust each other, so shares between
            // them go on as before.
            try db.execute(
                sql: """
                    CREATE TABLE task_invitation (
                        recipient_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        task_id TEXT NOT NULL,
                        sharer_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        created_at INTEGER NOT NULL,
                        PRIMARY KEY (recipient_id, task_id)
                    );
                    CREATE INDEX task_invitation_sharer ON task_invitation(sharer_id);
                    CREATE TABLE share_trust (
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        trusted_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        created_at INTEGER NOT NULL,
                        PRIMARY KEY (user_id, trusted_id)
                    );
                    CREATE INDEX share_trust_trusted ON share_trust(trusted_id);
                    INSERT OR IGNORE INTO share_trust (user_id, trusted_id, created_at)
                    SELECT a.user_id, b.user_id, max(a.granted_at, b.granted_at)
                    FROM redo_task_access a JOIN redo_task_access b ON a.task_id = b.task_id AND a.user_id <> b.user_id;
                    """)
        }
        migrator.registerMigration("v10-chat-history") { db in
            // Issue 48 item 1: a person's chat history, sealed like contact records, in a table
            // of the same shape (one collection each).
            try db.execute(
                sql: """
                    CREATE TABLE chat_history_record (
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        record_id TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        box BLOB NOT NULL,
                        seq INTEGER NOT NULL UNIQUE,
                        PRIMARY KEY (user_id, record_id)
                    );
                    CREATE INDEX chat_history_record_feed ON chat_history_record(user_id, seq);
                    """)
        }
        migrator.registerMigration("v11-kasia-compact-keys") { db in
            // Issue 49 item 3: compact keys (`SQLiteKasiaKeys`). The rows keep their positions;
            // addresses and tags get ids in the order of the rows that first named them. The kind
            // codes are written out, as the text of a shipped migration never changes
            // (`KasiaCompactKeysTests` holds them to `SQLiteKasiaKeys.code`).
            db.add(function: SQLiteKasiaKeys.transactionKeyFunction)
            defer { db.remove(function: SQLiteKasiaKeys.transactionKeyFunction) }
            try db.execute(
                sql: """
                    CREATE TABLE kasia_address (id INTEGER PRIMARY KEY NOT NULL, address TEXT NOT NULL UNIQUE);
                    CREATE TABLE kasia_tag (id INTEGER PRIMARY KEY NOT NULL, tag TEXT NOT NULL UNIQUE);
                    INSERT OR IGNORE INTO kasia_address (address)
                        SELECT address FROM (SELECT seq, 0 AS side, sender AS address FROM kasia_tx
                                             UNION ALL SELECT seq, 1, receiver FROM kasia_tx WHERE receiver IS NOT NULL)
                        ORDER BY seq, side;
                    INSERT OR IGNORE INTO kasia_tag (tag) SELECT tag FROM kasia_tx ORDER BY seq;
                    CREATE TABLE kasia_tx_v11 (
                        seq INTEGER PRIMARY KEY NOT NULL,
                        tx_key INTEGER NOT NULL,
                        tx_id TEXT NOT NULL,
                        block_time INTEGER NOT NULL,
                        kind INTEGER NOT NULL,
                        sender_id INTEGER NOT NULL,
                        receiver_id INTEGER,
                        tag_id INTEGER NOT NULL,
                        amount INTEGER NOT NULL DEFAULT 0,
                        body BLOB NOT NULL,
                        payload BLOB NOT NULL,
                        nonce TEXT NOT NULL,
                        signature TEXT NOT NULL,
                        accepting_block TEXT,
                        accepting_daa_score INTEGER,
                        relayed_time INTEGER
                    );
                    INSERT INTO kasia_tx_v11 (seq, tx_key, tx_id, block_time, kind, sender_id, receiver_id, tag_id, amount,
                                              body, payload, nonce, signature, accepting_block, accepting_daa_score,
                                              relayed_time)
                        SELECT seq, tandem_kasia_tx_key(tx_id), tx_id, block_time,
                               CASE kind WHEN 'handshake' THEN 1 WHEN 'contextual_message' THEN 2 WHEN 'payment' THEN 3
                                   WHEN 'self_stash' THEN 4 WHEN 'broadcast' THEN 5 ELSE 0 END,
                               (SELECT id FROM kasia_address WHERE address = sender),
                               (SELECT id FROM kasia_address WHERE address = receiver),
                               (SELECT id FROM kasia_tag WHERE kasia_tag.tag = kasia_tx.tag), amount, body, payload,
                               nonce, signature, accepting_block, accepting_daa_score, relayed_time
                        FROM kasia_tx ORDER BY seq;
                    DROP TABLE kasia_tx;
                    ALTER TABLE kasia_tx_v11 RENAME TO kasia_tx;
                    CREATE INDEX kasia_tx_by_key ON kasia_tx(tx_key);
                    CREATE INDEX kasia_tx_by_sender ON kasia_tx(sender_id, tag_id, kind, block_time, tx_key);
                    CREATE INDEX kasia_tx_by_receiver ON kasia_tx(receiver_id, kind, block_time, tx_key)
                        WHERE receiver_id IS NOT NULL;
                    CREATE INDEX kasia_tx_by_accepting_block ON kasia_tx(accepting_block)
                        WHERE accepting_block IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v12-redo-integer-keys") { db in
            // Issue 49 item 6: a node's position is its rowid (the separate unique index on
            // `pos` goes), and the feed is one B-tree keyed by account and feed position that
            // names its node by position (no rowid table beside the index, no 64-character id
            // per row). A feed row whose node is gone was never served (the pull joins) and is
            // dropped.
            try db.execute(
                sql: """
                    CREATE TABLE redo_node_v12 (
                        pos INTEGER PRIMARY KEY NOT NULL,
                        id TEXT NOT NULL UNIQUE,
                        task_id TEXT NOT NULL,
                        json BLOB NOT NULL,
                        author_key TEXT NOT NULL,
                        pushed_by TEXT NOT NULL,
                        received_at INTEGER NOT NULL
                    );
                    INSERT INTO redo_node_v12 (pos, id, task_id, json, author_key, pushed_by, received_at)
                        SELECT pos, id, task_id, json, author_key, pushed_by, received_at FROM redo_node ORDER BY pos;
                    CREATE TABLE redo_feed_v12 (
                        user_id TEXT NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
                        seq INTEGER NOT NULL,
                        node_pos INTEGER NOT NULL,
                        PRIMARY KEY (user_id, seq)
                    ) WITHOUT ROWID;
                    INSERT INTO redo_feed_v12 (user_id, seq, node_pos)
                        SELECT f.user_id, f.seq, n.pos FROM redo_feed f JOIN redo_node n ON n.id = f.node_id;
                    DROP TABLE redo_feed;
                    DROP TABLE redo_node;
                    ALTER TABLE redo_node_v12 RENAME TO redo_node;
                    ALTER TABLE redo_feed_v12 RENAME TO redo_feed;
                    CREATE INDEX redo_node_task ON redo_node(task_id, pos);
                    """)
        }
        return migrator
    }
}
